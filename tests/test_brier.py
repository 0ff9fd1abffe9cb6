"""Brier curves: the rule, the area identity, and the gap to the lower envelope."""

import re
from functools import partial

import numpy as np
import pandas as pd
import pytest
from strategies import GROUP_KEY_KINDS, compare_tables, many_groups, same_warnings

import costchart as cc


def _probabilities(seed, n=300):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    p = 1 / (1 + np.exp(-(rng.normal(size=n) * 1.3 + 1.4 * y - 0.8)))
    return np.round(p, 2), y


@pytest.mark.parametrize("seed", range(4))
def test_area_is_the_class_balanced_brier_score(seed):
    p, y = _probabilities(seed)
    curve = cc.brier_curve({"p": p, "y": y}, score="p", label="y")
    balanced = 0.5 * (np.mean((1 - p[y]) ** 2) + np.mean(p[~y] ** 2))
    assert cc.expected_cost(curve)["expected_cost"].iat[0] == pytest.approx(balanced, abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_curve_is_the_cost_of_acting_when_the_score_is_at_least_one_minus_pc(seed):
    p, y = _probabilities(seed, n=120)
    curve = cc.brier_curve({"p": p, "y": y}, score="p", label="y")
    # inside each segment (away from the jumps) compare with direct counting
    middles = (curve["pc"].to_numpy()[0::2] + curve["pc"].to_numpy()[1::2]) / 2
    for pc in middles:
        act = p >= 1 - pc
        expected = pc * np.mean(~act[y]) + (1 - pc) * np.mean(act[~y])
        assert cc.cost_at(curve, [pc])["cost"].iat[0] == pytest.approx(expected, abs=1e-12)


def test_brier_curve_lies_on_or_above_the_envelope_and_groups_work():
    frames = []
    for k in range(2):
        p, y = _probabilities(10 + k)
        frames.append(pd.DataFrame({"model": f"m{k}", "p": p, "y": y}))
    data = pd.concat(frames, ignore_index=True)
    curve = cc.brier_curve(data, score="p", label="y", by="model")
    envelope = cc.lower_envelope(cc.roc_points(data, score="p", label="y", by="model"))
    grid = np.linspace(0.003, 0.997, 331)
    for model in ("m0", "m1"):
        brier = cc.cost_at(curve[curve["model"] == model].drop(columns="model"), grid)
        best = cc.cost_at(envelope[envelope["model"] == model].drop(columns="model"), grid)
        assert (brier["cost"].to_numpy() >= best["cost"].to_numpy() - 1e-12).all()
    assert list(curve["model"].unique()) == ["m0", "m1"]


def test_scores_outside_zero_one_are_refused():
    with pytest.raises(cc.CostchartError, match=r"outside \[0, 1\].*probabilities"):
        cc.brier_curve({"p": [1.5, 0.2, -0.1], "y": [1, 0, 0]}, score="p", label="y")


def _brier_curve_group_by_group(data, *, score, label, by=None, pos_label=None, weight=None):
    """The per-group loop brier_curve was before it computed all groups in shared passes."""
    from costchart._io import schema as col
    from costchart._io.frames import normalize_by
    from costchart._io.groups import assemble, split_groups

    by = normalize_by(by)
    points = cc.roc_points(
        data, score=score, label=label, by=by or None, pos_label=pos_label, weight=weight
    )
    groups = split_groups(points, by)
    thresholds = points[col.THRESHOLD].to_numpy(np.float64)
    finite = thresholds[np.isfinite(thresholds)]
    if finite.size and (finite.min() < 0 or finite.max() > 1):
        msg = (
            f"column {score!r} has scores outside [0, 1] (from {finite.min():g} to "
            f"{finite.max():g}); a Brier curve needs probabilities of the positive class"
        )
        raise cc.CostchartError(msg)
    parts = []
    for group in groups:
        rows = group.positions
        own = thresholds[rows]
        fnr = 1 - points[col.TPR].to_numpy(np.float64)[rows]
        fpr = points[col.FPR].to_numpy(np.float64)[rows]
        starts = np.where(np.isfinite(own), 1 - own, 0.0)
        ends = np.append(starts[1:], 1.0)
        used = ends > starts
        lo, hi = starts[used], ends[used]
        pc = np.column_stack([lo, hi]).ravel()
        take = np.repeat(np.flatnonzero(used), 2)
        cost = pc * fnr[take] + (1 - pc) * fpr[take]
        part = pd.DataFrame(
            {
                col.PC: pc,
                col.COST: cost,
                col.THRESHOLD: own[take],
                col.SEGMENT: np.repeat(np.arange(used.sum()), 2),
            }
        )
        parts.append(part)
    body = pd.concat(parts, ignore_index=True)
    lengths = np.array([len(part) for part in parts])
    return assemble(groups, lengths, {c: body[c].to_numpy() for c in body.columns})


@pytest.mark.parametrize("key", GROUP_KEY_KINDS)
@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weight", [None, "w"])
def test_all_groups_at_once_equal_each_group_alone(seed, key, weight):
    data, by = many_groups(seed, key, groups=50, max_rows=40)
    if seed == 2:
        data.loc[data["s"] > 0.9, "s"] = 1.0  # scores of 1 and 0 hold no interval of pc
        data.loc[data["s"] < 0.1, "s"] = 0.0
    options = {"score": "s", "label": "y", "by": by, "weight": weight}
    fast, slow = same_warnings(
        partial(cc.brier_curve, data, **options),
        partial(_brier_curve_group_by_group, data, **options),
    )
    compare_tables(fast, slow)


def test_one_group_and_polars_input_equal_the_loop():
    pl = pytest.importorskip("polars")
    data, by = many_groups(4, "int", groups=30)
    for frame, grouping in ((pl.from_pandas(data), by), (data, None)):
        options = {"score": "s", "label": "y", "by": grouping}
        compare_tables(
            *same_warnings(
                partial(cc.brier_curve, frame, **options),
                partial(_brier_curve_group_by_group, frame, **options),
            )
        )
    one = {"score": "s", "label": "y"}
    with pytest.raises(cc.CostchartError) as expected:
        _brier_curve_group_by_group(data.iloc[:1], **one)
    with pytest.raises(cc.CostchartError, match=re.escape(str(expected.value))):
        cc.brier_curve(data.iloc[:1], **one)


def test_pc_gives_the_brier_curve_at_those_operating_points_exactly():
    rng = np.random.default_rng(8)
    y = rng.random(200) < 0.5
    data = {"p": np.clip(np.round(0.5 + 0.3 * rng.normal(size=200) * (2 * y - 1), 2), 0, 1)}
    data |= {"y": y}
    curve = cc.brier_curve(data, score="p", label="y")
    lo, hi = curve["pc"].to_numpy()[0::2], curve["pc"].to_numpy()[1::2]
    cost_lo, cost_hi = curve["cost"].to_numpy()[0::2], curve["cost"].to_numpy()[1::2]
    middle = (lo + hi) / 2  # inside each interval the curve is the line of its threshold
    at = cc.brier_curve(data, score="p", label="y", pc=middle)
    assert list(at.columns) == ["pc", "cost", "threshold"]
    np.testing.assert_allclose(at["cost"], (cost_lo + cost_hi) / 2, rtol=0, atol=1e-12)
    np.testing.assert_array_equal(at["threshold"], curve["threshold"].to_numpy()[0::2])


def test_pc_refuses_what_is_no_operating_point_and_scores_that_are_no_probabilities():
    data = {"p": [0.9, 0.6, 0.3, 0.2], "y": [1, 0, 1, 0]}
    with pytest.raises(cc.CostchartError, match="one dimension"):
        cc.brier_curve(data, score="p", label="y", pc=[[0.5]])
    with pytest.raises(cc.CostchartError, match=r"column 'p' has scores outside \[0, 1\]"):
        cc.brier_curve({"p": [2, 1], "y": [1, 0]}, score="p", label="y", pc=[0.5])
