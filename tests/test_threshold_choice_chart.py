"""threshold_choice_chart: the three curves drawn are the transformers', with their losses."""

import numpy as np
import pandas as pd
import pytest
from scenegraph import data_marks, legend_labels, scene

import costchart as cc
from costchart._charts.threshold_choice import CHOICE_NAMES

SIZE = 200
DASHES = {"optimal": [1, 0], "score": [6, 3], "rate": [2, 3]}


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(12)
    parts = []
    for model, shift in [("sharp", 1.6), ("blunt", 0.6)]:
        y = rng.random(120) < 0.4
        p = 1 / (1 + np.exp(-(rng.normal(size=120) + shift * y - 0.5)))
        parts.append(pd.DataFrame({"model": model, "p": np.round(p, 2), "y": y}))
    return pd.concat(parts, ignore_index=True)


def _drawn(graph, dash, model) -> tuple[np.ndarray, np.ndarray]:
    """The (pc, cost) of the cost view's line of this dash and model, from its pixels."""
    lines = [
        m
        for m in data_marks(graph)
        if m.marktype == "line"
        and m.name.startswith("concat_1")
        and m.items[0].get("strokeDash") == dash
        and f"model: {model};" in m.items[0]["description"]
    ]
    assert len(lines) == 1, (dash, model, len(lines))
    assert lines[0].items[0]["stroke"] == cc.palette(["sharp", "blunt"])[model]
    x = np.array([item["x"] for item in lines[0].items])
    y = np.array([item["y"] for item in lines[0].items])
    return x / SIZE, (1 - y / SIZE) * 0.5  # y_max 0.5


def test_each_curve_drawn_is_its_transformers(data):
    chart = cc.threshold_choice_chart(data, score="p", label="y", color="model", size=SIZE)
    graph = scene(chart)
    for model in ["sharp", "blunt"]:
        part = data[data.model == model]
        points = cc.roc_points(part, score="p", label="y")
        expected = {
            "optimal": cc.lower_envelope(points),
            "score": cc.brier_curve(part, score="p", label="y"),
            "rate": cc.rate_driven_curve(points),
        }
        for method, curve in expected.items():
            pc, cost = _drawn(graph, DASHES[method], model)
            np.testing.assert_allclose(pc, curve.pc, atol=1e-9)
            np.testing.assert_allclose(cost, curve.cost, atol=1e-9)


def test_the_legend_gives_each_classifiers_losses_in_the_keys_order(data):
    chart = cc.threshold_choice_chart(data, score="p", label="y", color="model", size=SIZE)
    labels = legend_labels(scene(chart))
    losses = cc.expected_loss(
        data, score="p", label="y", by="model", method=["optimal", "score", "rate"]
    )
    for model in ["sharp", "blunt"]:
        mine = losses[losses.model == model].expected_loss
        assert f"{model}: " + " · ".join(f"{v:.3f}" for v in mine) in labels
    assert [CHOICE_NAMES[m] for m in ["optimal", "score", "rate"]] == labels[-3:]


def test_one_classifier_has_its_losses_in_the_key(data):
    part = data[data.model == "blunt"]
    chart = cc.threshold_choice_chart(part, score="p", label="y", size=SIZE)
    labels = legend_labels(scene(chart))
    losses = cc.expected_loss(part, score="p", label="y", method=["optimal", "score", "rate"])
    expected = [
        f"{CHOICE_NAMES[m]}, loss {v:.3f}"
        for m, v in zip(losses.threshold_choice, losses.expected_loss, strict=True)
    ]
    assert labels == expected


def test_the_roc_view_draws_each_classifiers_curve(data):
    chart = cc.threshold_choice_chart(data, score="p", label="y", color="model", size=SIZE)
    graph = scene(chart)
    roc_lines = [
        m
        for m in data_marks(graph)
        if m.name.startswith("concat_0") and "strokeDash" not in m.items[0]
    ]
    colours = cc.palette(["sharp", "blunt"])
    assert {m.items[0]["stroke"] for m in roc_lines} == set(colours.values())
    sharp = next(m for m in roc_lines if m.items[0]["stroke"] == colours["sharp"])
    points = cc.roc_points(data[data.model == "sharp"], score="p", label="y")
    fpr = np.array([item["x"] for item in sharp.items]) / SIZE
    tpr = 1 - np.array([item["y"] for item in sharp.items]) / SIZE
    drawn = np.column_stack([fpr, tpr])
    own = points[["fpr", "tpr"]].to_numpy()
    # Every point drawn is one of the classifier's, and every hull vertex is drawn.
    assert (np.abs(drawn[:, None, :] - own[None, :, :]).max(axis=2).min(axis=1) < 1e-9).all()
    hull = cc.roc_hull(points)[["fpr", "tpr"]].to_numpy()
    assert (np.abs(hull[:, None, :] - drawn[None, :, :]).max(axis=2).min(axis=1) < 1e-9).all()


def test_scores_that_are_not_probabilities_are_refused(data):
    logits = data.assign(p=data.p * 8 - 4)
    with pytest.raises(cc.CostchartError, match=r"column 'p' has scores outside \[0, 1\]"):
        cc.threshold_choice_chart(logits, score="p", label="y", color="model")


def test_bad_options_are_named(data):
    with pytest.raises(cc.CostchartError, match="y_max"):
        cc.threshold_choice_chart(data, score="p", label="y", y_max=0)
    with pytest.raises(cc.CostchartError, match="'nope'"):
        cc.threshold_choice_chart(data, score="p", label="y", color="nope")
    with pytest.raises(cc.CostchartError, match="subtitle= needs a title="):
        cc.threshold_choice_chart(data, score="p", label="y", subtitle="x")
