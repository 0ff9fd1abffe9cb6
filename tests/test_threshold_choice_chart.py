"""threshold_choice_chart: the three curves drawn are the transformers', with their losses."""

import numpy as np
import pandas as pd
import pytest
from scenegraph import data_marks, legend_labels, scene, texts

import costchart as cc
from costchart._charts.threshold_choice import CHOICE_NAMES

SIZE = 200
DASHES = {"optimal": [1, 0], "score_driven": [6, 3], "rate_driven": [2, 3]}


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


def _rule_costs(part: pd.DataFrame, pc: np.ndarray) -> dict[str, np.ndarray]:
    """The Brier and rate-driven costs at ``pc``, from their rules, by hand."""
    pos, neg = part.p[part.y].to_numpy(), part.p[~part.y].to_numpy()
    fnr = np.array([np.mean(pos < 1 - q) for q in pc])
    fpr = np.array([np.mean(neg >= 1 - q) for q in pc])
    points = cc.roc_points(part, score="p", label="y")
    rate = (points.fpr + points.tpr) / 2
    tpr_r, fpr_r = np.interp(pc, rate, points.tpr), np.interp(pc, rate, points.fpr)
    return {
        "score_driven": pc * fnr + (1 - pc) * fpr,
        "rate_driven": pc * (1 - tpr_r) + (1 - pc) * fpr_r,
    }


def test_each_curve_drawn_is_its_rule(data):
    chart = cc.threshold_choice_chart(data, score="p", label="y", classifier="model", size=SIZE)
    graph = scene(chart)
    for model in ["sharp", "blunt"]:
        part = data[data.model == model]
        envelope = cc.lower_envelope(cc.roc_points(part, score="p", label="y"))
        pc, cost = _drawn(graph, DASHES["optimal"], model)
        np.testing.assert_allclose(pc, envelope.pc, atol=1e-9)
        np.testing.assert_allclose(cost, envelope.cost, atol=1e-9)
        grid = np.linspace(0, 1, SIZE + 1)  # a sample a pixel
        expected = _rule_costs(part, grid)
        for method in ["score_driven", "rate_driven"]:
            pc, cost = _drawn(graph, DASHES[method], model)
            np.testing.assert_allclose(pc, grid, atol=1e-9)
            np.testing.assert_allclose(cost, expected[method], atol=1e-9)


def test_many_thresholds_keep_the_page_small():
    rng = np.random.default_rng(5)
    y = rng.random(20_000) < 0.3
    p = 1 / (1 + np.exp(-(rng.normal(size=20_000) + 1.2 * y)))  # 20,000 distinct scores
    chart = cc.threshold_choice_chart({"p": p, "y": y}, score="p", label="y", size=SIZE)
    values = chart.to_dict()["datasets"]
    assert sum(len(rows) for rows in values.values()) < 3_000


def test_the_legend_reads_numbers_and_flags_as_the_page_prints_them(data):
    for values in ([1.0, 2.0], [True, False], [3, 10]):
        coded = data.assign(model=data.model.map(dict(zip(["sharp", "blunt"], values))))
        labels = legend_labels(scene(cc.threshold_choice_chart(coded, score="p", label="y", classifier="model", size=SIZE)))  # fmt: skip
        assert not any("undefined" in label for label in labels), labels
        losses = cc.expected_loss(
            coded, score="p", label="y", by="model", threshold_choice="optimal"
        )
        for value, loss in zip(losses.model, losses.expected_loss, strict=True):
            printed = str(value).lower() if isinstance(value, (bool, np.bool_)) else f"{value:g}"
            assert any(
                label.startswith(f"{loss:.3f} · ") and label.endswith(f"  {printed}")
                for label in labels
            ), labels


def test_the_legend_gives_each_classifiers_losses_in_the_keys_order(data):
    chart = cc.threshold_choice_chart(data, score="p", label="y", classifier="model", size=SIZE)
    labels = legend_labels(scene(chart))
    losses = cc.expected_loss(
        data,
        score="p",
        label="y",
        by="model",
        threshold_choice=["optimal", "score_driven", "rate_driven"],
    )
    for model in ["sharp", "blunt"]:
        mine = losses[losses.model == model].expected_loss
        assert " · ".join(f"{v:.3f}" for v in mine) + f"  {model}" in labels
    assert [CHOICE_NAMES[m] for m in ["optimal", "score_driven", "rate_driven"]] == labels[-3:]


def test_one_classifier_has_its_losses_in_the_key(data):
    part = data[data.model == "blunt"]
    chart = cc.threshold_choice_chart(part, score="p", label="y", size=SIZE)
    labels = legend_labels(scene(chart))
    losses = cc.expected_loss(
        part, score="p", label="y", threshold_choice=["optimal", "score_driven", "rate_driven"]
    )
    expected = [
        f"{CHOICE_NAMES[m]}, loss {v:.3f}"
        for m, v in zip(losses.threshold_choice, losses.expected_loss, strict=True)
    ]
    assert labels == expected


def test_the_roc_view_draws_each_classifiers_curve(data):
    chart = cc.threshold_choice_chart(data, score="p", label="y", classifier="model", size=SIZE)
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
        cc.threshold_choice_chart(logits, score="p", label="y", classifier="model")


def test_bad_options_are_named(data):
    with pytest.raises(cc.CostchartError, match="y_max"):
        cc.threshold_choice_chart(data, score="p", label="y", y_max=0)
    with pytest.raises(cc.CostchartError, match="'nope'"):
        cc.threshold_choice_chart(data, score="p", label="y", classifier="nope")
    with pytest.raises(cc.CostchartError, match="subtitle= needs a title="):
        cc.threshold_choice_chart(data, score="p", label="y", subtitle="x")


def test_each_panel_draws_its_data_sets_curves_and_losses(data):
    two = pd.concat([data.assign(set="s1"), data.assign(set="s2", p=1 - data.p)])
    chart = cc.threshold_choice_chart(
        two, score="p", label="y", classifier="model", facet="set", size=SIZE
    )
    graph = scene(chart)
    lines = [m for m in data_marks(graph) if m.marktype == "line"]
    for panel, name in enumerate(["s1", "s2"]):
        for model in ["sharp", "blunt"]:
            part = two[(two.set == name) & (two.model == model)]
            grid = np.linspace(0, 1, SIZE + 1)
            expected = _rule_costs(part, grid)
            for method in ["score_driven", "rate_driven"]:
                (mark,) = [
                    m
                    for m in lines
                    if m.name.startswith(f"concat_{panel}_concat_1")
                    and m.items[0].get("strokeDash") == DASHES[method]
                    and f"model: {model};" in m.items[0]["description"]
                ]
                cost = (1 - np.array([item["y"] for item in mark.items]) / SIZE) * 0.5
                np.testing.assert_allclose(cost, expected[method], atol=1e-9)
    losses = cc.expected_loss(
        two,
        score="p",
        label="y",
        by=["set", "model"],
        threshold_choice=["optimal", "score_driven", "rate_driven"],
    )
    drawn = texts(graph)
    assert drawn.count("expected loss: optimal · score · rate") == 2
    for (_, model), group in losses.groupby(["set", "model"], sort=False):
        line = " · ".join(f"{v:.3f}" for v in group.expected_loss) + f"  {model}"
        assert line in drawn


def test_color_and_facet_must_differ(data):
    with pytest.raises(cc.CostchartError, match="color= and facet= are both 'model'"):
        cc.threshold_choice_chart(data, score="p", label="y", classifier="model", facet="model")


def test_a_column_named_like_the_charts_own_fields_keeps_its_values(data):
    named = data.rename(columns={"model": "row"})
    spec = cc.threshold_choice_chart(named, score="p", label="y", classifier="row").to_dict()
    rows = [row for rows in spec["datasets"].values() for row in rows]
    assert {row["row"] for row in rows if "row" in row} == {"sharp", "blunt"}
    with pytest.raises(cc.CostchartError, match="'costchart_row', a column name costchart"):
        cc.threshold_choice_chart(
            data.rename(columns={"model": "costchart_row"}),
            score="p",
            label="y",
            classifier="costchart_row",
        )


def test_a_date_facet_draws_each_dates_panel(data):
    days = pd.to_datetime(np.where(np.arange(len(data)) % 2 == 0, "2024-01-01", "2024-02-01"))
    chart = cc.threshold_choice_chart(
        data.assign(day=days), score="p", label="y", classifier="model", facet="day", size=SIZE
    )
    drawn = texts(scene(chart))
    assert drawn.count("expected loss: optimal · score · rate") == 2
