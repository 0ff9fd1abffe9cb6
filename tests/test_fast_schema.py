"""The compiled schema check agrees with Altair's, and only ever says "valid" (``_export/fast_schema.py``)."""

from __future__ import annotations

import copy

import altair as alt
import pytest

import costchart as cc
from costchart._export import fast_schema, image

pytest.importorskip("jsonschema_rs")


def _specs() -> dict[str, dict]:
    points = cc.roc_points(
        {"s": [4, 3, 2, 1, 4, 2, 3, 1], "y": [1, 0, 1, 0] * 2, "m": ["a"] * 4 + ["b"] * 4},
        score="s",
        label="y",
        by="m",
    )
    band = cc.bootstrap_band(
        {"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y", pc=[0.5], rng=0
    )
    charts = {
        "cost": cc.cost_chart(points, classifier="m", show_owners=True),
        "roc_cost": cc.roc_cost_chart(points, classifier="m", combined=True),
        "explorer": cc.explorer(points, classifier="m"),
        "band": cc.band_chart(band),
        "plain": alt.Chart().mark_point(),
    }
    return {name: image._without_values(c.to_dict(validate=False)) for name, c in charts.items()}


def _broken(spec: dict) -> list[dict]:
    """Specs the schema refuses, made from a valid one."""
    wrong_columns = {**copy.deepcopy(spec), "columns": "three"}
    unknown = {**copy.deepcopy(spec), "no_such_property": 1}
    wrong_mark = copy.deepcopy(spec)
    wrong_mark["mark"] = {"type": "not-a-mark"}
    return [wrong_columns, unknown, wrong_mark]


@pytest.mark.parametrize("name", ["cost", "roc_cost", "explorer", "band", "plain"])
def test_the_compiled_check_agrees_with_altairs(name):
    spec = _specs()[name]
    assert fast_schema.surely_valid(spec)
    alt.TopLevelSpec.validate(spec)  # Altair agrees
    for broken in _broken(spec):
        assert not fast_schema.surely_valid(broken)
        with pytest.raises(cc.CostchartError, match="not a valid Vega-Lite"):
            image._check_schema(broken)


def test_a_valid_spec_never_reaches_jsonschema(monkeypatch):
    spec = _specs()["cost"]

    def refuse(*args, **kwargs):
        raise AssertionError("jsonschema was asked")

    monkeypatch.setattr(alt.TopLevelSpec, "validate", refuse)
    image._check_schema(spec)


def test_without_the_compiled_validator_jsonschema_decides(monkeypatch):
    monkeypatch.setattr(fast_schema, "_validator", lambda: None)
    spec = _specs()["roc_cost"]
    assert not fast_schema.surely_valid(spec)
    image._check_schema(spec)  # valid: jsonschema passes it
    with pytest.raises(cc.CostchartError, match="not a valid Vega-Lite"):
        image._check_schema(_broken(spec)[0])


def test_names_that_a_reference_may_not_hold_are_spelled_out():
    assert fast_schema._safe("MarkPropDef<(Gradient|string|null)>") == (
        "MarkPropDef_3c__28_Gradient_7c_string_7c_null_29__3e_"
    )
    rule = {"a": [{"$ref": "#/definitions/X<y>"}], "$ref": "#/definitions/Z"}
    assert fast_schema._renamed(rule) == {
        "a": [{"$ref": "#/definitions/X_3c_y_3e_"}],
        "$ref": "#/definitions/Z",
    }
