"""Joined views that declare different mappings for one scale are merged or refused."""

from __future__ import annotations

import json

import pytest
import vl_convert as vlc
from scenegraph import legend_symbols

import costchart as cc
from costchart import layers
from costchart._export.image import chart_spec, vl_version
from costchart._export.scales import merge_scales


@pytest.fixture(scope="module")
def sonar(demo_points):
    return demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")


@pytest.fixture(scope="module")
def two_views(sonar):
    """A ROC view coloured by classifier and a cost view that adds a 'trivial' category."""
    colours = cc.palette(sorted(sonar.classifier.unique()))
    hull = cc.roc_hull(sonar)
    roc = layers.roc_curve(sonar, classifier="classifier", palette=colours)
    lines = cc.to_cost_lines(hull[["classifier", "fpr", "tpr"]], by=["classifier"])
    lines = lines.assign(classifier=lines.classifier.where(lines.line > 0, "trivial"))
    cost = layers.cost_lines(
        lines, classifier="classifier", palette={**colours, "trivial": "#888888"}
    )
    return roc | cost


def _legend(spec: dict) -> dict:
    graph = vlc.vegalite_to_scenegraph(spec, vl_version=vl_version())
    return {label: symbol.get("stroke") for label, symbol in legend_symbols(graph).items()}


def test_a_category_only_a_later_view_declares_keeps_its_own_colour(two_views, tmp_path):
    # Vega-Lite alone gives 'trivial' the first view's first colour (the blue of 'logistic').
    raw = _legend(two_views.to_dict())
    assert raw["trivial"] == raw["logistic"]
    merged = _legend(chart_spec(two_views))
    assert merged["trivial"] == "#888888"
    assert merged["logistic"] == cc.palette(["logistic"])["logistic"]
    saved = json.loads(cc.save(two_views, tmp_path / "chart.json").read_text())
    assert _legend(saved)["trivial"] == "#888888"  # every export merges


def test_one_value_in_two_colours_is_refused(sonar):
    roc = layers.roc_curve(sonar, classifier="classifier", palette={"tree": "red"})
    cost = layers.roc_curve(sonar, classifier="classifier", palette={"tree": "blue"})
    with pytest.raises(
        cc.CostchartError, match=r"give 'tree' different color \('red' and 'blue'\)"
    ):
        chart_spec(roc | cost)


def test_independent_scales_and_continuous_scales_are_left_alone():
    def view(domain, outputs, kind="nominal"):
        scale = {"domain": domain, "range": outputs}
        return {
            "mark": "point",
            "encoding": {"color": {"field": "c", "type": kind, "scale": scale}},
        }

    independent = {
        "hconcat": [view(["a"], ["red"]), view(["a"], ["blue"])],
        "resolve": {"scale": {"color": "independent"}},
    }
    assert merge_scales(independent) is independent
    continuous = {
        "hconcat": [
            view([0, 1], ["white", "red"], "quantitative"),
            view([0, 2], ["white", "blue"], "quantitative"),
        ]
    }
    assert merge_scales(continuous) is continuous
    spec = {"hconcat": [view(["a"], ["red"]), view(["b"], ["blue"])]}
    merged = merge_scales(spec)
    assert [v["encoding"]["color"]["scale"] for v in merged["hconcat"]] == [
        {"domain": ["a", "b"], "range": ["red", "blue"]}
    ] * 2
    assert spec["hconcat"][0]["encoding"]["color"]["scale"]["domain"] == ["a"]  # not mutated
