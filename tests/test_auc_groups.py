"""auc of many groups in shared passes equals the area of each group on its own."""

import numpy as np
import pandas as pd
import pytest

import costchart as cc


def _cut_at(fpr, tpr, cut):
    """The curve up to fpr = cut, ending where it crosses cut (points sorted by fpr, tpr)."""
    keep = fpr <= cut
    inside_f, inside_t = fpr[keep], tpr[keep]
    if inside_f[-1] < cut:
        after = int(np.argmax(fpr > cut))
        share = (cut - fpr[after - 1]) / (fpr[after] - fpr[after - 1])
        end = tpr[after - 1] + share * (tpr[after] - tpr[after - 1])
        inside_f, inside_t = np.append(inside_f, cut), np.append(inside_t, end)
    return inside_f, inside_t


def _auc_group_by_group(points, by, max_fpr=None, standardized=False):
    """The reference: each group sorted and integrated by numpy on its own."""
    areas = []
    for _, group in points.groupby(by, sort=False, dropna=False):
        fpr, tpr = group.fpr.to_numpy(float), group.tpr.to_numpy(float)
        order = np.lexsort((tpr, fpr))
        fpr, tpr = fpr[order], tpr[order]
        if max_fpr is not None:
            fpr, tpr = _cut_at(fpr, tpr, max_fpr)
        area = float(np.trapezoid(tpr, fpr))
        if standardized:
            area = 0.5 * (1 + (area - max_fpr**2 / 2) / (max_fpr - max_fpr**2 / 2))
        areas.append(area)
    return np.array(areas)


def _random_points(rng, groups: int) -> pd.DataFrame:
    sizes = rng.integers(2, 60, size=groups)
    data = pd.DataFrame(
        {
            "model": np.repeat(rng.choice(["a", "b", None], size=groups), sizes),
            "fold": np.repeat(np.arange(groups), sizes),
            # rounded scores: ties within and across classes
            "s": np.round(rng.normal(size=sizes.sum()), int(rng.integers(0, 3))),
            "y": rng.random(sizes.sum()) < 0.5,
        }
    )
    data.loc[data.groupby("fold").head(1).index, "y"] = True  # both classes in every group
    data.loc[data.groupby("fold").tail(1).index, "y"] = False
    points = cc.roc_points(data, score="s", label="y", by=["model", "fold"])
    return points.sample(frac=1, random_state=int(rng.integers(1000)))  # rows in any order


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize(
    ("max_fpr", "standardized"), [(None, False), (0.3, False), (0.5, True), (1.0, False)]
)
def test_auc_of_many_groups_equals_each_group_alone(seed, max_fpr, standardized):
    rng = np.random.default_rng(seed)
    points = _random_points(rng, int(rng.integers(1, 40)))
    got = cc.auc(points, max_fpr=max_fpr, standardized=standardized)
    expected = _auc_group_by_group(points, ["model", "fold"], max_fpr, standardized)
    keys = points.drop_duplicates(["model", "fold"])[["model", "fold"]].reset_index(drop=True)
    pd.testing.assert_frame_equal(got[["model", "fold"]], keys)
    np.testing.assert_allclose(got.auc.to_numpy(), expected, rtol=1e-13, atol=1e-15)


def test_a_cut_at_a_point_of_the_curve_and_at_a_vertical_step():
    points = pd.DataFrame(
        {
            "g": [0] * 5 + [1] * 4,
            "fpr": [0, 0.5, 0.5, 0.5, 1, 0, 0.25, 0.75, 1],
            "tpr": [0, 0.2, 0.6, 0.4, 1, 0.5, 0.5, 1, 1],
        }
    )
    got = cc.auc(points, by="g", max_fpr=0.5).auc.to_numpy()
    # group 0 reaches tpr 0.6 at fpr 0.5; group 1 crosses 0.5 at tpr 0.75
    np.testing.assert_allclose(got, [0.05, 0.125 + 0.25 * (0.5 + 0.75) / 2], rtol=1e-15)
    np.testing.assert_allclose(got, _auc_group_by_group(points, "g", 0.5), rtol=1e-15)
