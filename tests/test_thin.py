import re

import numpy as np
import pandas as pd
import pytest

import costchart as cc


@pytest.fixture(scope="module")
def big_points():
    rng = np.random.default_rng(3)
    y = rng.random(50_000) < 0.4
    data = {
        "s": rng.normal(size=50_000) + y,
        "y": y,
        "g": np.where(rng.random(50_000) < 0.5, "a", "b"),
    }
    return cc.roc_points(data, score="s", label="y", by="g")


def test_thinning_keeps_hull_and_ends(big_points):
    thinned = cc.thin_points(big_points, max_points=40)
    for name, part in big_points.groupby("g"):
        kept = thinned[thinned.g == name]
        hull = cc.roc_hull(part)
        assert len(kept) <= 40 + len(hull)
        assert set(zip(hull.fpr, hull.tpr)) <= set(zip(kept.fpr, kept.tpr))
        pd.testing.assert_frame_equal(
            cc.lower_envelope(kept).reset_index(drop=True),
            cc.lower_envelope(part).reset_index(drop=True),
        )
        assert (kept.fpr.iat[0], kept.tpr.iat[0]) == (0, 0)
        assert (kept.fpr.iat[-1], kept.tpr.iat[-1]) == (1, 1)


def test_thinned_points_spread_along_the_curve(big_points):
    part = big_points[big_points.g == "a"]
    kept = cc.thin_points(part, max_points=40)
    along = np.sort((kept.fpr + kept.tpr).to_numpy())
    assert np.max(np.diff(along)) < 2 * (2 / 39)  # no gap much wider than the even spacing


def test_small_groups_are_kept_whole():
    points = cc.roc_points({"s": [3, 2, 1], "y": [1, 0, 1]}, score="s", label="y")
    pd.testing.assert_frame_equal(cc.thin_points(points, max_points=10), points)


# nan, strings, bools and None once raised raw exceptions (ValueError, TypeError).
@pytest.mark.parametrize("bad", [1, 2.5, 0, -3, float("nan"), float("inf"), "10", True, None])
def test_max_points_must_be_a_whole_number(bad):
    points = pd.DataFrame({"fpr": [0.5], "tpr": [0.5]})
    with pytest.raises(
        cc.CostchartError,
        match=rf"max_points={re.escape(repr(bad))} must be a whole number of at least 2",
    ):
        cc.thin_points(points, max_points=bad)


def _thinned_group_by_group(points, by, max_points):
    """The per-group loop thin_points was before it thinned all groups at once."""
    from costchart._io import schema as col
    from costchart._roc.hull import hull_of_group

    table = points.reset_index(drop=True)
    keep = np.zeros(len(table), dtype=bool)
    columns = [c for c in col.ROC_COLUMNS if c in table.columns]
    fpr, tpr = table.fpr.to_numpy(float), table.tpr.to_numpy(float)
    for _, part in table.groupby(by, sort=False):
        positions = part.index.to_numpy()
        if len(positions) <= max_points:
            keep[positions] = True
            continue
        order = positions[np.lexsort((tpr[positions], fpr[positions]))]
        along = fpr[order] + tpr[order]
        targets = np.linspace(0.0, 2.0, max_points)
        keep[order[np.clip(np.searchsorted(along, targets), 0, len(order) - 1)]] = True
        keep[order[[0, -1]]] = True
        hull = hull_of_group(table, order, columns)
        on_hull = pd.MultiIndex.from_arrays([hull.fpr, hull.tpr])
        here = pd.MultiIndex.from_arrays([fpr[order], tpr[order]])
        keep[order[here.isin(on_hull) & ~here.duplicated(keep="first")]] = True
    return table[keep]


@pytest.mark.parametrize("seed", range(12))
def test_all_groups_at_once_equal_each_group_alone(seed):
    rng = np.random.default_rng(seed)
    n_groups = int(rng.integers(1, 40))
    sizes = rng.integers(2, 300, n_groups)
    data = pd.DataFrame(
        {
            "g": np.repeat(np.arange(n_groups), sizes),
            # few distinct scores in some groups (ties), many in others
            "s": np.where(
                rng.random(sizes.sum()) < 0.5,
                rng.integers(0, 5, sizes.sum()),
                rng.normal(size=sizes.sum()),
            ),
        }
    )
    data["y"] = rng.random(len(data)) < 0.4
    first = np.r_[0, np.cumsum(sizes)[:-1]]
    data.loc[first, "y"], data.loc[first + 1, "y"] = True, False  # both classes in each
    points = cc.roc_points(data, score="s", label="y", by="g")
    max_points = int(rng.integers(2, 60))
    fast = cc.thin_points(points, max_points=max_points)
    slow = _thinned_group_by_group(points, "g", max_points)
    np.testing.assert_array_equal(
        fast[["g", "fpr", "tpr"]].to_numpy(), slow[["g", "fpr", "tpr"]].to_numpy()
    )


def test_points_that_are_no_curve_are_searched_group_by_group():
    # Several crisp classifiers in one group: along fpr, tpr falls and rises.
    rng = np.random.default_rng(3)
    n = 200
    points = pd.DataFrame(
        {"g": np.repeat([0, 1], n), "fpr": rng.random(2 * n), "tpr": rng.random(2 * n)}
    )
    fast = cc.thin_points(points, max_points=10, by="g")
    slow = _thinned_group_by_group(points, "g", 10)
    np.testing.assert_array_equal(
        fast[["g", "fpr", "tpr"]].to_numpy(), slow[["g", "fpr", "tpr"]].to_numpy()
    )


def test_max_total_shares_the_points_among_the_groups():
    rng = np.random.default_rng(3)
    y = rng.random(40_000) < 0.4
    data = {"s": rng.normal(size=40_000) + y, "y": y, "g": np.repeat(np.arange(8), 5_000)}
    points = cc.roc_points(data, score="s", label="y", by="g")
    # 8 groups share 240 points: 30 each (besides hull vertices), below max_points=100.
    shared = cc.thin_points(points, max_points=100, max_total=240)
    pd.testing.assert_frame_equal(shared, cc.thin_points(points, max_points=30))
    # Never fewer than 10 a group, never more than max_points.
    pd.testing.assert_frame_equal(
        cc.thin_points(points, max_points=100, max_total=16), cc.thin_points(points, max_points=10)
    )
    pd.testing.assert_frame_equal(
        cc.thin_points(points, max_points=20, max_total=10_000),
        cc.thin_points(points, max_points=20),
    )


@pytest.mark.parametrize("bad", ["x", 1, 2.5, True])
def test_max_total_must_be_a_whole_number_of_at_least_2(bad):
    points = cc.roc_points({"s": [3, 2, 1], "y": [1, 0, 1]}, score="s", label="y")
    with pytest.raises(cc.CostchartError, match=f"max_total={re.escape(repr(bad))}"):
        cc.thin_points(points, max_total=bad)
