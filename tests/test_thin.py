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
