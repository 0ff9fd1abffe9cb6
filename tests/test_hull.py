import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from strategies import arbitrary_points, scored_instances

import costchart as cc


def _hull_height(hull, fpr):
    return np.interp(fpr, hull["fpr"], hull["tpr"])


def _check_hull(points, hull):
    # Every point lies on or under the hull.
    assert np.all(points["tpr"].to_numpy() <= _hull_height(hull, points["fpr"]) + 1e-12)
    # The hull runs from (0, 0) to (1, 1) through points of the set (or the trivial ones).
    assert (hull["fpr"].iat[0], hull["tpr"].iat[0]) == (0, 0)
    assert (hull["fpr"].iat[-1], hull["tpr"].iat[-1]) == (1, 1)
    pairs = set(zip(points["fpr"], points["tpr"])) | {(0.0, 0.0), (1.0, 1.0)}
    assert set(zip(hull["fpr"], hull["tpr"])) <= pairs
    # Strictly concave: every vertex is a corner.
    slopes = hull["slope_lo"].to_numpy()[:-1]
    assert np.all(np.diff(slopes) < 0)
    # pc ranges tile [0, 1] in order.
    np.testing.assert_array_equal(hull["pc_hi"].to_numpy()[:-1], hull["pc_lo"].to_numpy()[1:])
    assert hull["pc_lo"].iat[0] == 0 and hull["pc_hi"].iat[-1] == 1


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(scored_instances())
def test_hull_of_scored_data(data):
    points = cc.roc_points(data, score="score", label="y")
    hull = cc.roc_hull(points)
    _check_hull(points, hull)
    assert set(hull.columns) >= {"threshold", "tp", "fp", "slope_lo", "pc_hi"}


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(arbitrary_points())
def test_hull_of_arbitrary_points(points):
    _check_hull(points, cc.roc_hull(points))


def test_hull_slopes_and_pc_ranges():
    points = pd.DataFrame({"fpr": [0.0, 0.0, 0.2, 0.5, 1.0], "tpr": [0.0, 0.4, 0.8, 0.9, 1.0]})
    hull = cc.roc_hull(points)
    assert hull["fpr"].tolist() == [0.0, 0.0, 0.2, 0.5, 1.0]
    np.testing.assert_allclose(hull["slope_hi"], [np.inf, np.inf, 2.0, 1 / 3, 0.2])
    np.testing.assert_allclose(hull["slope_lo"], [np.inf, 2.0, 1 / 3, 0.2, 0.0])
    np.testing.assert_allclose(hull["pc_lo"], [0, 0, 1 / 3, 0.75, 1 / 1.2])
    np.testing.assert_allclose(hull["pc_hi"], [0, 1 / 3, 0.75, 1 / 1.2, 1])
    # pc = 1 / (1 + slope) everywhere.
    np.testing.assert_allclose(hull["pc_hi"], 1 / (1 + hull["slope_lo"]))


def test_collinear_and_duplicate_points_are_not_corners():
    points = pd.DataFrame(
        {"fpr": [0, 0.1, 0.1, 0.2, 0.3, 0.3, 1.0], "tpr": [0, 0.3, 0.3, 0.6, 0.9, 0.9, 1.0]}
    )
    hull = cc.roc_hull(points)
    assert list(zip(hull.fpr, hull.tpr)) == [(0, 0), (0.3, 0.9), (1, 1)]


def test_trivial_points_are_added_when_missing():
    hull = cc.roc_hull(pd.DataFrame({"threshold": [5.0], "fpr": [0.2], "tpr": [0.7]}))
    assert hull["threshold"].tolist() == [np.inf, 5.0, -np.inf]


def test_hull_counts_are_exact_for_large_integer_counts(rng):
    # Collinear in counts but not exactly in floating-point rates.
    points = cc.from_confusion(
        {"tp": [3_000_001], "fn": [6_999_999], "fp": [3], "tn": [7]},
        tp="tp",
        fn="fn",
        fp="fp",
        tn="tn",
    )
    hull = cc.roc_hull(points)
    assert len(hull) == 3


@pytest.mark.parametrize("n", [1, 2])
def test_tiny_tables(n):
    points = pd.DataFrame({"fpr": [0.5] * n, "tpr": [0.5] * n})
    hull = cc.roc_hull(points)
    assert list(zip(hull.fpr, hull.tpr)) == [(0, 0), (1, 1)]


def test_empty_points_give_an_empty_hull():
    # An ungrouped empty table used to raise IndexError.
    empty = cc.roc_hull(pd.DataFrame({"fpr": [], "tpr": []}))
    assert list(empty.columns) == ["tpr", "fpr", "slope_lo", "slope_hi", "pc_lo", "pc_hi"]
    assert len(empty) == 0
    assert len(cc.lower_envelope(pd.DataFrame({"fpr": [], "tpr": []}))) == 0


def test_nan_rates_are_refused():
    with pytest.raises(
        cc.CostchartError, match=r"column 'tpr' of points must hold rates in \[0, 1\], but has nan"
    ):
        cc.roc_hull(pd.DataFrame({"fpr": [0.1, 0.2], "tpr": [0.5, np.nan]}))


@pytest.mark.parametrize(
    "extra",
    [{"tp": [3]}, {"tp": [3], "fp": [1]}, {"threshold": np.array([2], dtype=np.int64)}],
)
def test_trivial_points_added_to_partial_or_integer_columns(extra):
    # Adding (0, 0) and (1, 1) used to cast NaN or inf to int64 (IntCastingNaNError).
    hull = cc.roc_hull(pd.DataFrame({"fpr": [0.1], "tpr": [0.5], **extra}))
    np.testing.assert_array_equal(hull["fpr"], [0.0, 0.1, 1.0])
    np.testing.assert_array_equal(hull["tpr"], [0.0, 0.5, 1.0])
    if "threshold" in extra:
        np.testing.assert_array_equal(hull["threshold"], [np.inf, 2.0, -np.inf])


def test_hull_of_points_pooled_from_test_sets_of_different_sizes():
    # by= leaving out a grouping column pools two curves whose class totals differ: their
    # counts do not order the points as their rates do, so the hull is taken on the rates.
    first = cc.roc_points({"s": [3.0, 2, 1, 0], "y": [1, 0, 1, 0]}, score="s", label="y")
    second = cc.roc_points({"s": [2.0, 1, 0], "y": [1, 1, 0]}, score="s", label="y")
    pooled = pd.concat([first.assign(run="a"), second.assign(run="b")]).assign(model="m")
    hull = cc.roc_hull(pooled, by="model")
    # Without thresholds and run labels the rows are a cloud of points, which a hull takes.
    cloud = pooled.drop(columns=["tp", "fp", "tn", "fn", "run", "threshold"])
    expected = cc.roc_hull(cloud, by="model")
    # With thresholds but without the run labels nothing tells the two curves apart.
    with pytest.raises(cc.CostchartError, match=r"threshold inf has two rows.*add a column"):
        cc.roc_hull(pooled.drop(columns="run"), by="model")
    np.testing.assert_allclose(hull[["fpr", "tpr"]], expected[["fpr", "tpr"]])
    assert hull[["fpr", "tpr"]].values.tolist() == [[0.0, 0.0], [0.0, 1.0], [1.0, 1.0]]


@pytest.mark.parametrize("seed", range(4))
def test_hulls_of_columns_already_read_equal_the_hulls_of_the_frame(seed):
    # read_hulls passes the columns check_rates read to all_hulls; the frame's own
    # columns must give the same hulls.
    from costchart._io.groups import split_groups
    from costchart._roc.hull import all_hulls

    rng = np.random.default_rng(seed)
    y = rng.random(200) < 0.4
    data = {"s": np.round(rng.normal(size=200) + y, seed % 3), "y": y, "g": rng.integers(0, 3, 200)}
    points = cc.roc_points(data, score="s", label="y", by="g")
    groups = split_groups(points, ["g"])
    columns = ["threshold", "tp", "fp", "tn", "fn", "tpr", "fpr"]
    read = {c: points[c].to_numpy() for c in ("fpr", "tpr", "tp", "threshold")}
    fast, general = all_hulls(points, groups, columns, read), all_hulls(points, groups, columns)
    np.testing.assert_array_equal(fast.lengths, general.lengths)
    np.testing.assert_array_equal(fast.rows, general.rows)
    assert list(fast.columns) == list(general.columns)
    for column in general.columns:
        assert fast.columns[column].dtype == general.columns[column].dtype
        np.testing.assert_array_equal(fast.columns[column], general.columns[column])


@pytest.mark.parametrize("seed", range(5))
def test_exact_scales_says_which_groups_hold_one_curves_counts(seed):
    # Against a group-by-group reading of the rule: every point's exact value is 0 where
    # its rate is, not NaN, and its value / rate is the group's first such ratio.
    from costchart._roc.hull import exact_scales

    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 8, size=12)
    group = np.repeat(np.arange(12), sizes)
    rate = np.where(rng.random(len(group)) < 0.2, 0.0, rng.random(len(group)))
    total = rng.integers(5, 50, size=12).astype(float)[group]
    values = rate * total
    spoilt = rng.random(len(group)) < 0.05
    values[spoilt] = rng.choice([np.nan, 0.0, 1.0, 3.7], size=int(spoilt.sum()))
    # and surely: a NaN in group 2, a ratio 1 % off in group 4, a lost count in group 6
    first = np.cumsum(sizes) - sizes
    rate[first[[4, 6]]] = 0.5
    values[first[2]] = np.nan
    values[first[4]] = 0.5 * total[first[4]] * 1.01
    values[first[6]] = 0.0
    other_rate, other_values = rate[::-1].copy(), (rate[::-1] * 20.0)
    expected = []
    for g in range(12):
        ok = True
        for v, r in ((values, rate), (other_values, other_rate)):
            v, r = v[group == g], r[group == g]
            ok &= not np.any(np.isnan(v) | ((v == 0) != (r == 0)))
            ratios = v[r > 0] / r[r > 0]
            ok &= bool(np.all(np.abs(ratios - ratios[:1]) <= 1e-9 * np.abs(ratios[:1])))
        expected.append(ok)
    found = exact_scales([values, other_values], (rate, other_rate), group, 12)
    np.testing.assert_array_equal(found, expected)
    assert found.any() and not found.all()  # both answers are exercised
    # Groups said to be contiguous (as the hulls' are): the same answer, one reduction.
    contiguous = exact_scales([values, other_values], (rate, other_rate), group, 12, sizes=sizes)
    np.testing.assert_array_equal(contiguous, expected)
    with_empty = np.insert(sizes, [0, 5, 12], 0)  # empty groups too
    found_empty = exact_scales(
        [values, other_values], (rate, other_rate), None, 15, sizes=with_empty
    )
    np.testing.assert_array_equal(found_empty[with_empty > 0], expected)
    assert found_empty[with_empty == 0].all()  # no points, nothing wrong
