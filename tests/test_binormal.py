"""The exact-bootstrap paper's simulations: thresholds, costs, scores, coverage, the chart."""

import numpy as np
import pandas as pd
import pytest
from scenegraph import data_marks, scene
from scipy import optimize, stats

import costchart as cc
from costchart import band_coverage, coverage_chart, coverage_grid, difference_coverage
from costchart.datasets import crossing_roc_curves
from costchart.datasets.binormal import binormal_cost, binormal_scores, binormal_threshold


@pytest.mark.parametrize("pc", [0.1, 0.3, 0.5, 0.8])
def test_threshold_minimizes_the_true_cost(pc):
    found = optimize.minimize_scalar(
        lambda t: binormal_cost(pc, t, mu_pos=1.5, mu_neg=-0.5, sigma=2.0),
        bounds=(-20, 20),
        method="bounded",
        options={"xatol": 1e-10},
    ).x
    assert binormal_threshold(pc, mu_pos=1.5, mu_neg=-0.5, sigma=2.0) == pytest.approx(
        found, abs=1e-5
    )


def test_cost_is_the_normal_error_rates():
    cost = binormal_cost(0.3, 0.2, mu_pos=1.0, mu_neg=-1.0, sigma=3.0)
    expected = 0.3 * stats.norm.cdf((0.2 - 1) / 3) + 0.7 * stats.norm.sf((0.2 + 1) / 3)
    assert cost == pytest.approx(expected, rel=1e-14)


def test_paired_scores_have_the_asked_correlation_and_shift():
    data = binormal_scores(
        n_pos=20_000, n_neg=20_000, mu=1.0, sigma=3.0, shift=2.0, correlation=0.6, rng=3
    )
    wide = data.pivot_table(index=["instance", "label"], columns="classifier", values="score")
    wide = wide.reset_index()
    for label, centre_a, centre_b in ((1, 1.0, 3.0), (0, -1.0, -1.0)):
        part = wide[wide["label"] == label]
        assert part["a"].mean() == pytest.approx(centre_a, abs=0.06)
        assert part["b"].mean() == pytest.approx(centre_b, abs=0.06)
        assert part["a"].std() == pytest.approx(3.0, rel=0.02)
        assert np.corrcoef(part["a"], part["b"])[0, 1] == pytest.approx(0.6, abs=0.02)


def test_band_coverage_equals_a_loop_over_test_sets():
    pc = np.array([0.3, 0.5, 0.7])
    table = band_coverage(mu=1.5, n_per_class=40, simulations=25, pc=pc, rng=5)
    data = binormal_scores(n_pos=40, n_neg=40, mu=1.5, simulations=25, rng=5)
    thresholds = binormal_threshold(pc, mu_pos=1.5, mu_neg=-1.5)
    truth = binormal_cost(pc, thresholds, mu_pos=1.5, mu_neg=-1.5)
    hits = np.zeros(len(pc))
    for _, one in data.groupby("simulation"):
        for k, t in enumerate(thresholds):
            band = cc.bootstrap_band(one, score="score", label="label", threshold=t, pc=[pc[k]])
            hits[k] += band["lower"].iat[0] <= truth[k] <= band["upper"].iat[0]
    np.testing.assert_allclose(table["coverage"], hits / 25)
    np.testing.assert_allclose(table["true_cost"], truth)


def test_difference_coverage_holds_the_true_difference():
    table = difference_coverage(
        mu=1, shift=2, correlation=0.6, n_per_class=300, simulations=40, pc=[0.3, 0.5], rng=2
    )
    assert (table["true_cost"] > 0).all()  # b, shifted up, is cheaper
    assert ((table["coverage"] > 0.7) & (table["coverage"] <= 1)).all()


def test_coverage_grid_runs_every_combination_in_order():
    table = coverage_grid(
        band_coverage,
        settings={"mu": [1.5, 3.0], "interval": ["normal", "discrete"]},
        n_per_class=30,
        simulations=5,
        pc=[0.4, 0.6],
        rng=1,
    )
    assert list(table.columns[:2]) == ["mu", "interval"]
    runs = table[["mu", "interval"]].drop_duplicates().values.tolist()
    assert runs == [[1.5, "normal"], [1.5, "discrete"], [3.0, "normal"], [3.0, "discrete"]]
    one = band_coverage(
        mu=3.0, n_per_class=30, simulations=5, pc=[0.4, 0.6], rng=1, interval="discrete"
    )
    got = table[(table["mu"] == 3.0) & (table["interval"] == "discrete")]
    np.testing.assert_array_equal(got["coverage"], one["coverage"])
    with pytest.raises(cc.CostchartError, match="settings="):
        coverage_grid(band_coverage, settings={})


def test_coverage_chart_draws_each_run_and_the_target():
    table = pd.DataFrame(
        {
            "mu": [1.5, 1.5, 3.0, 3.0] * 2,
            "distribution": ["normal"] * 4 + ["exact"] * 4,
            "pc": [0.2, 0.8] * 4,
            "coverage": [0.9, 0.8, 0.85, 0.95, 0.7, 0.6, 0.88, 0.91],
        }
    )
    chart = coverage_chart(table, color="distribution", facet="mu", confidence_level=0.8)
    spec = chart.to_dict()
    assert spec["facet"]["field"] == "mu" and spec["facet"]["sort"] == ["1.5", "3"]
    drawn = data_marks(scene(chart))
    lines = [m for m in drawn if m.marktype == "line"]
    rules = [m for m in drawn if m.marktype == "rule"]
    points = [item for m in lines for item in m.items]
    assert len(points) == 8  # two pc values on each of four lines (two runs in two panels)
    # y is measured down from the top of a 160 px panel whose axis runs 0 to 1
    drawn_ys = sorted(round(160 * (1 - c), 6) for c in table["coverage"])
    assert sorted(round(p["y"], 6) for p in points) == drawn_ys
    assert {round(item["y"], 6) for m in rules for item in m.items} == {round(160 * 0.2, 6)}


def test_crossing_roc_curves_tell_the_story():
    curves = crossing_roc_curves()
    hull = cc.roc_hull(curves[["fpr", "tpr"]], by=[])
    inner = curves[(curves["fpr"] > 0) & (curves["fpr"] < 1)]
    on_hull = inner.merge(hull[["fpr", "tpr"]], on=["fpr", "tpr"])
    assert sorted(on_hull["classifier"].unique()) == ["A", "C"]  # B and D never optimal
    touched = cc.iso_performance(curves[["fpr", "tpr"]], slope=[10, 0.1], by=[])
    owners = touched[["fpr", "tpr"]].merge(inner, on=["fpr", "tpr"], how="left")
    assert owners["classifier"].tolist() == ["A", "C"]  # slope 10 picks A, 1/10 picks C
