"""Rate-driven curves: the defining rule, exact rows, the hull's curve, groups, refusals."""

import numpy as np
import pandas as pd
import polars as pl
import pytest

import costchart as cc
from costchart._cost.rate_driven import MAX_STEP


def _scores(rng, n: int, rounded: bool = True) -> pd.DataFrame:
    y = rng.random(n) < rng.uniform(0.2, 0.8)
    y[:2] = [False, True]
    s = rng.random(n) + rng.uniform(0, 1.5) * y
    return pd.DataFrame({"s": np.round(s, 1) if rounded else s, "y": y})


def _rule(points: pd.DataFrame, pc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """TPR and FPR where (TPR + FPR) / 2 = pc along the ROC polyline (mixtures between)."""
    fpr, tpr = points.fpr.to_numpy(), points.tpr.to_numpy()
    rate = (fpr + tpr) / 2  # non-decreasing along roc_points' rows
    return np.interp(pc, rate, tpr), np.interp(pc, rate, fpr)


@pytest.mark.parametrize("seed", range(6))
def test_every_row_follows_the_rule(seed):
    data = _scores(np.random.default_rng(seed), 60)
    points = cc.roc_points(data, score="s", label="y")
    curve = cc.rate_driven_curve(points)
    pc = curve.pc.to_numpy()
    tpr, fpr = _rule(points, pc)
    np.testing.assert_allclose((curve.tpr + curve.fpr) / 2, pc, atol=1e-12)
    np.testing.assert_allclose(curve.tpr, tpr, atol=1e-12)
    np.testing.assert_allclose(curve.fpr, fpr, atol=1e-12)
    np.testing.assert_allclose(curve.cost, pc * (1 - tpr) + (1 - pc) * fpr, atol=1e-12)
    assert pc[0] == 0 and pc[-1] == 1 and (np.diff(pc) > 0).all()
    assert np.diff(pc).max() <= MAX_STEP + 1e-15


def test_each_roc_point_is_one_row_with_its_threshold():
    data = _scores(np.random.default_rng(7), 80)
    points = cc.roc_points(data, score="s", label="y")
    curve = cc.rate_driven_curve(points)
    at_points = curve[curve.threshold.notna()].reset_index(drop=True)
    np.testing.assert_array_equal(at_points.threshold, points.threshold)
    np.testing.assert_array_equal(at_points.tpr, points.tpr)
    np.testing.assert_array_equal(at_points.fpr, points.fpr)
    np.testing.assert_allclose(at_points.pc, (points.tpr + points.fpr) / 2, atol=0)
    assert list(curve.columns) == ["pc", "cost", "tpr", "fpr", "threshold"]
    assert (curve.dtypes == np.float64).all()


def test_between_points_the_curve_is_the_chord_bent_by_minus_two():
    # One segment from (0, 0) to (0.5, 1): rates 0 to 0.75, costs 0 and 0.25 * 0.5.
    points = pd.DataFrame({"fpr": [0.0, 0.5, 1.0], "tpr": [0.0, 1.0, 1.0]})
    curve = cc.rate_driven_curve(points)
    first = curve[curve.pc <= 0.75]
    pc = first.pc.to_numpy()
    chord = pc / 0.75 * 0.125
    np.testing.assert_allclose(first.cost, chord - 2 * pc * (pc - 0.75), atol=1e-15)


def test_the_drawn_rows_are_within_a_pixel_of_the_exact_area():
    data = _scores(np.random.default_rng(11), 30)
    points = cc.roc_points(data, score="s", label="y")
    curve = cc.rate_driven_curve(points)
    exact = cc.expected_loss(points, threshold_choice="rate_driven")["expected_loss"].item()
    drawn = cc.expected_cost(curve)["expected_cost"].item()
    # Chords lie below the concave pieces: the drawn area is smaller by at most w**3/3 a step.
    assert 0 < exact - drawn <= MAX_STEP**2 / 3 + 1e-15


def test_the_hulls_curve_lies_between_the_envelope_and_the_curves_own():
    data = _scores(np.random.default_rng(5), 200, rounded=False)
    points = cc.roc_points(data, score="s", label="y")
    hull = cc.roc_hull(points)
    of_hull = cc.rate_driven_curve(hull)
    pc = np.linspace(0, 1, 10001)

    def exact(curve_points):
        tpr, fpr = _rule(curve_points, pc)
        return pc * (1 - tpr) + (1 - pc) * fpr

    own_cost, hull_cost = exact(points), exact(hull)
    envelope = cc.cost_at(cc.lower_envelope(points), pc).cost.to_numpy()
    assert (hull_cost <= own_cost + 1e-12).all()  # the hull dominates along every rate
    assert (own_cost - hull_cost).max() > 0.005
    assert (hull_cost >= envelope - 1e-12).all()
    drawn = cc.cost_at(of_hull, pc).cost.to_numpy()
    assert np.abs(drawn - hull_cost).max() <= MAX_STEP**2 / 2 + 1e-12
    assert (hull_cost - envelope).max() > 0.01  # not the envelope: thresholds set by rate
    # The hull's rows are its vertices' rates
    at_vertices = of_hull[of_hull.threshold.notna()]
    np.testing.assert_allclose(at_vertices.pc, (hull.fpr + hull.tpr) / 2)


def test_trivial_points_are_added_where_missing():
    curve = cc.rate_driven_curve({"fpr": [0.2], "tpr": [0.6]})
    vertices = curve[curve.threshold.notna() | curve.pc.isin([0.0, 0.4, 1.0])]
    assert curve.pc.iloc[0] == 0 and curve.pc.iloc[-1] == 1
    ends = curve[curve.threshold.abs() == np.inf]
    assert list(ends.threshold) == [np.inf, -np.inf]
    assert list(ends.cost) == [0.0, 0.0]
    assert vertices.cost[np.isclose(vertices.pc, 0.4)].item() == pytest.approx(
        0.4 * 0.4 + 0.6 * 0.2
    )


def test_groups_equal_each_group_alone():
    rng = np.random.default_rng(2)
    parts = [_scores(rng, rng.integers(5, 50)).assign(model=m) for m in ["b", "a", "c"]]
    data = pd.concat(parts, ignore_index=True)
    points = cc.roc_points(data, score="s", label="y", by="model")
    grouped = cc.rate_driven_curve(points)
    assert grouped.attrs["costchart_by"] == ["model"]
    assert list(grouped.model.unique()) == ["b", "a", "c"]
    for model, part in zip(["b", "a", "c"], parts, strict=True):
        alone = cc.rate_driven_curve(cc.roc_points(part, score="s", label="y"))
        mine = grouped[grouped.model == model].drop(columns="model").reset_index(drop=True)
        pd.testing.assert_frame_equal(mine, alone, check_like=False, check_exact=True)


def test_polars_and_cost_lines_give_the_same_curve():
    data = _scores(np.random.default_rng(9), 40)
    points = cc.roc_points(data, score="s", label="y")
    expected = cc.rate_driven_curve(points)
    from_polars = cc.rate_driven_curve(pl.from_pandas(points))
    pd.testing.assert_frame_equal(from_polars, expected)
    from_lines = cc.rate_driven_curve(cc.to_cost_lines(points))
    np.testing.assert_allclose(from_lines.cost, expected.cost, atol=1e-12)


def test_points_of_several_classifiers_are_refused():
    two = pd.DataFrame({"fpr": [0.1, 0.3], "tpr": [0.8, 0.5]})  # rates 0.45 and 0.4
    with pytest.raises(
        cc.CostchartError, match=r"not one ROC curve per group: tpr falls from 0\.8 to 0\.5"
    ):
        cc.rate_driven_curve(two)


def test_no_points_no_rows():
    empty = pd.DataFrame({"fpr": pd.Series(dtype=float), "tpr": pd.Series(dtype=float)})
    curve = cc.rate_driven_curve(empty)
    assert len(curve) == 0 and list(curve.columns) == ["pc", "cost", "tpr", "fpr", "threshold"]


def test_input_is_not_mutated():
    points = cc.roc_points(_scores(np.random.default_rng(1), 30), score="s", label="y")
    before = points.copy()
    cc.rate_driven_curve(points)
    pd.testing.assert_frame_equal(points, before)


def test_pc_gives_the_curve_at_those_operating_points_exactly():
    rng = np.random.default_rng(5)
    y = rng.random(300) < 0.5
    data = {"s": np.round(rng.normal(size=300) + y, 1), "y": y, "g": np.repeat(["a", "b"], 150)}
    points = cc.roc_points(data, score="s", label="y", by="g")
    curve = cc.rate_driven_curve(points)
    for name, rows in curve.groupby("g"):
        at = cc.rate_driven_curve(points[points["g"] == name], pc=rows["pc"].to_numpy())
        np.testing.assert_allclose(at["cost"], rows["cost"], rtol=0, atol=1e-15)
        np.testing.assert_allclose(at[["tpr", "fpr"]], rows[["tpr", "fpr"]], rtol=0, atol=1e-15)
        np.testing.assert_array_equal(at["threshold"], rows["threshold"])
    grid = cc.rate_driven_curve(points, pc=[0.0, 0.25, 1.0])
    assert list(grid.columns) == ["g", "pc", "cost", "tpr", "fpr", "threshold"]
    assert grid["pc"].tolist() == [0.0, 0.25, 1.0] * 2


@pytest.mark.parametrize(
    ("bad", "message"),
    [([[0.1, 0.2]], "one dimension"), (1.5, r"outside \[0, 1\]"), ("x", "not str")],
)
def test_pc_must_be_operating_points(bad, message):
    points = cc.roc_points({"s": [3, 2, 1], "y": [1, 0, 1]}, score="s", label="y")
    with pytest.raises(cc.CostchartError, match=message):
        cc.rate_driven_curve(points, pc=bad)
