"""Brier curves: the rule, the area identity, and the gap to the lower envelope."""

import numpy as np
import pandas as pd
import pytest

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
