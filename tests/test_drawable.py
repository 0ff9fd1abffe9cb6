"""Grouping values that are not plain numbers or strings: drawn as text, or refused.

Issue 31 item 1: dates, decimals, periods, intervals, bytes, time deltas, tuples,
frozensets, complex numbers, ``inf`` and integers past 2**53 in a chart's colour, facet or
other grouping column gave raw errors or pages that did not draw. Each chart draws them
as the text :mod:`costchart._io.drawable` gives; the legends and panels read back from
the rendered scenegraph must be exactly those texts, one curve per value.
"""

from __future__ import annotations

import datetime
import decimal
import json
import warnings

import numpy as np
import pandas as pd
import pytest
from scenegraph import legend_labels, marks, scene

import costchart as cc
from costchart._export.image import chart_spec
from costchart._io.drawable import drawable, drawable_values

#: Two values of each hostile kind, and the text a chart shows for each.
KINDS = {
    "date": ([datetime.date(2020, 1, 31), datetime.date(2021, 6, 1)], ["2020-01-31", "2021-06-01"]),
    "datetime": (
        [datetime.datetime(2020, 1, 31, 8, 30), datetime.datetime(2021, 6, 1)],
        ["2020-01-31 08:30:00", "2021-06-01 00:00:00"],
    ),
    "Timestamp": (
        [pd.Timestamp("2020-01-31"), pd.Timestamp("2021-06-01")],
        ["2020-01-31", "2021-06-01"],
    ),
    "Decimal": ([decimal.Decimal("1.50"), decimal.Decimal("10")], ["1.50", "10"]),
    "Period": ([pd.Period("2020-01", "M"), pd.Period("2020-02", "M")], ["2020-01", "2020-02"]),
    "Interval": ([pd.Interval(0, 1), pd.Interval(1, 2)], ["(0, 1]", "(1, 2]"]),
    "bytes": ([b"tree", "bé".encode()], ["tree", "bé"]),
    "Timedelta": (
        [pd.Timedelta("1D"), pd.Timedelta("2h")],
        ["1 days 00:00:00", "0 days 02:00:00"],
    ),
    "tuple": ([(1, "a"), (2, "b")], ["(1, 'a')", "(2, 'b')"]),
    "frozenset": ([frozenset({1}), frozenset({2})], ["frozenset({1})", "frozenset({2})"]),
    "complex": ([1 + 2j, 3 + 0j], ["(1+2j)", "(3+0j)"]),
    "inf": ([float("inf"), 1.0], ["inf", "1.0"]),
    "-inf": ([float("-inf"), 0.5], ["-inf", "0.5"]),
    "past 2**53": ([2**53 + 1, 2**53 + 2], [str(2**53 + 1), str(2**53 + 2)]),
}


def _data(values, *, n=40, seed=0) -> pd.DataFrame:
    """Scores of four curves: column ``g`` takes ``values`` within, ``h`` across panels."""
    rng = np.random.default_rng(seed)
    first, second = values
    frame = pd.DataFrame({"s": rng.random(4 * n).round(2), "y": rng.integers(0, 2, 4 * n)})
    frame["g"] = pd.Series(([first] * n + [second] * n) * 2, dtype=object)
    frame["h"] = pd.Series([first] * (2 * n) + [second] * (2 * n), dtype=object)
    return frame


def _points(frame, by=("g", "h")) -> pd.DataFrame:
    return cc.roc_points(frame, score="s", label="y", by=list(by))


# -- the conversion ---------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_reads_as_its_text(kind):
    values, texts = KINDS[kind]
    table = pd.DataFrame({"g": pd.Series([*values, None], dtype=object), "x": [1, 2, 3]})
    before = table.copy()
    drawn = drawable(table, ["g"], "points")
    assert drawn["g"].tolist() == [*texts, None]
    pd.testing.assert_frame_equal(table, before)  # the user's frame is unchanged


def test_typed_columns_read_as_text_too():
    table = pd.DataFrame(
        {
            "day": pd.to_datetime(["2020-01-31", "2021-06-01"]),
            "hour": pd.to_datetime(["2020-01-31 08:00", "2021-06-01 00:00"]).tz_localize("UTC"),
            "wait": pd.to_timedelta(["1D", "2h"]),
            "month": pd.period_range("2020-01", periods=2, freq="M"),
            "z": np.array([1 + 2j, 3j]),
            "top": np.array([np.inf, 2.0]),
            "big": np.array([2**62, 1], dtype=np.int64),
            "cat": pd.Categorical([decimal.Decimal("1"), decimal.Decimal("2")]),
        }
    )
    drawn = drawable(table, list(table.columns), "points")
    assert drawn.to_dict("list") == {
        "day": ["2020-01-31", "2021-06-01"],
        "hour": ["2020-01-31 08:00:00+00:00", "2021-06-01 00:00:00+00:00"],
        "wait": ["1 days 00:00:00", "0 days 02:00:00"],
        "month": ["2020-01", "2020-02"],
        "z": ["(1+2j)", "3j"],
        "top": ["inf", "2.0"],
        "big": [str(2**62), "1"],
        "cat": ["1", "2"],
    }


def test_plain_columns_are_passed_on_as_they_are():
    table = pd.DataFrame(
        {
            "name": ["a", "b"],
            "n": [1, 2],
            "x": [0.5, np.nan],
            "flag": [True, False],
            "text": pd.array(["a", None], dtype="string"),
            "cat": pd.Categorical(["a", "b"]),
        }
    )
    assert drawable(table, list(table.columns), "points") is table


def test_missing_values_in_text_columns_become_none():
    # JSON has no NaN: a missing name went into the page as NaN, which no parser takes.
    values = drawable_values(pd.Series(["a", np.nan, pd.NA, None], dtype=object), "g")
    assert values.tolist() == ["a", None, None, None]


def test_the_recorded_kind_and_grouping_are_kept():
    points = _points(_data(KINDS["Decimal"][0]))
    drawn = drawable(points, ["g", "h"], "points")
    assert drawn is not points and drawn.attrs == points.attrs


def test_values_that_read_the_same_are_refused_naming_the_column():
    table = pd.DataFrame({"model": pd.Series([decimal.Decimal("1"), "1"], dtype=object)})
    with pytest.raises(cc.CostchartError, match=r"column 'model' of points holds.*distinct name"):
        drawable(table, ["model"], "points")
    points = _points(_data([decimal.Decimal("1"), "1"]))
    with pytest.raises(cc.CostchartError, match=r"column 'g' of points.*read the same"):
        cc.cost_chart(points, classifier="g", facet="h")


def test_a_palette_is_keyed_by_the_text_drawn():
    day = datetime.date(2020, 1, 31)
    assert cc.palette([day, b"x"], colors={day: "black"}) == {"2020-01-31": "black", "x": "#0072B2"}


# -- the charts ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", list(KINDS))
def test_cost_chart_draws_each_kind_as_its_text(kind):
    values, texts = KINDS[kind]
    chart = cc.cost_chart(_points(_data(values)), classifier="g", facet="h")
    json.dumps(chart_spec(chart), allow_nan=False)
    graph = scene(chart)
    assert [label for label in legend_labels(graph) if label in texts] == sorted(texts)
    titles = [i.get("text") for m in marks(graph) if m.role == "title-text" for i in m.items]
    assert sorted(titles) == sorted(f"h: {text}" for text in texts)  # one panel each
    # Four curves (two a panel), none merged: the envelope drawn has every pair.
    drawn = cc.chart_tables(chart)["envelope"][["g", "h"]].drop_duplicates()
    assert sorted(map(tuple, drawn.to_numpy())) == sorted((g, h) for g in texts for h in texts)


#: Every chart taking a colour or facet column, called on data whose columns ``g`` (colour)
#: and ``h`` (facet) hold the hostile values.
CHARTS = {
    "cost_chart": lambda d: cc.cost_chart(_points(d), classifier="g", facet="h"),
    "roc_chart": lambda d: cc.roc_chart(_points(d), classifier="g", facet="h"),
    "roc_cost_chart": lambda d: cc.roc_cost_chart(_points(d), classifier="g", facet="h"),
    "roc_cost_chart combined": lambda d: cc.roc_cost_chart(
        _points(d), classifier="g", facet="h", combined=True
    ),
    "threshold_choice_chart": lambda d: cc.threshold_choice_chart(
        d, score="s", label="y", classifier="g", facet="h"
    ),
    "threshold_choice_chart colour": lambda d: cc.threshold_choice_chart(
        d, score="s", label="y", classifier="g"
    ),
    "explorer": lambda d: cc.explorer(_points(d, by=["g"]), classifier="g"),
    "pr_chart": lambda d: cc.pr_chart(_points(d), classifier="g", facet="h"),
    "average_chart": lambda d: cc.average_chart(
        _points(d.assign(fold=np.arange(len(d)) % 2), by=["g", "h", "fold"]),
        over="fold",
        classifier="g",
        facet="h",
    ),
    "band_chart": lambda d: cc.band_chart(
        cc.bootstrap_band(d, score="s", label="y", by=["g", "h"], pc=np.linspace(0, 1, 11)),
        classifier="g",
        facet="h",
    ),
    "decision_curve_chart": lambda d: cc.decision_curve_chart(
        cc.net_benefit(d, score="s", label="y", by=["g", "h"]), classifier="g", facet="h"
    ),
    "layers.roc_curve": lambda d: cc.layers.roc_curve(_points(d), classifier="g"),
    "cheapest_set_chart": lambda d: cc.cheapest_set_chart(
        # the two classifiers g of a panel scored on the same 40 instances
        d.assign(i=np.tile(np.arange(40), 4), y=np.tile(d["y"].to_numpy()[:40], 4)),
        score="s",
        label="y",
        classifier="g",
        instance="i",
        by="h",
        n_resamples=100,
        rng=0,
        pc=np.linspace(0, 1, 11),
    ),
}


@pytest.mark.parametrize("name", list(CHARTS))
@pytest.mark.parametrize("kind", ["date", "Decimal", "bytes", "tuple", "inf", "past 2**53"])
def test_every_chart_colours_each_kind_by_its_text(name, kind):
    values, texts = KINDS[kind]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)
        chart = CHARTS[name](_data(values))
    spec = chart_spec(chart)
    json.dumps(spec, allow_nan=False)  # what the page embeds: no NaN, no Python objects
    shown = _texts(scene(chart))
    # Each value is shown as its text: a legend entry, a panel title or a line of losses
    # (the threshold-choice chart ends each with the classifier's name).
    for text in texts:
        assert any(line == text or line.endswith((f" {text}", f": {text}")) for line in shown), (
            text,
            shown,
        )
    assert not any("Decimal(" in line or line.startswith("b'") for line in shown), shown


def _texts(graph) -> list[str]:
    """Every text the scene draws: legends, titles, axis labels and text marks."""
    found = []
    for mark in marks(graph):
        for item in mark.items if mark.marktype == "text" else ():
            text = item.get("text")
            found += [str(t) for t in text] if isinstance(text, list) else [str(text)]
    return found


def test_line_separators_in_names_are_spaces_everywhere_in_the_spec():
    # Vega-Lite copies values into expressions (sort orders, filters) with JSON.stringify,
    # which leaves U+2028 as it is, and Vega's parser reads it as a line end: every
    # occurrence is a space, so each value still finds its colour.
    frame = _data(["p\u2028q", "r\u2029s"])
    spec = chart_spec(cc.cost_chart(_points(frame), classifier="g", facet="h"))
    text = json.dumps(spec, ensure_ascii=False)
    assert "\u2028" not in text and "\u2029" not in text
    domains = [
        scale["domain"]
        for scale in _all(spec, "scale")
        if isinstance(scale, dict) and "p q" in scale.get("domain", [])
    ]
    assert domains and all(d == ["p q", "r s"] for d in domains)
    values = {row["g"] for rows in spec["datasets"].values() for row in rows if "g" in row}
    assert values == {"p q", "r s"}


def _all(spec, key):
    if isinstance(spec, dict):
        for k, v in spec.items():
            if k == key:
                yield v
            yield from _all(v, key)
    elif isinstance(spec, list):
        for v in spec:
            yield from _all(v, key)


def test_a_difference_chart_names_the_classifiers_as_the_other_charts_draw_them():
    frame = _data([b"tree", b"forest"])
    frame["y"] = np.tile(frame["y"].to_numpy()[:40], 4)
    frame["instance"] = np.r_[np.tile(np.arange(40), 2), np.tile(np.arange(40, 80), 2)]
    band = cc.difference_band(
        frame, score="s", label="y", classifier="g", instance="instance", by="h", pc=[0.5]
    )
    chart = cc.difference_chart(band, facet="h")
    shown = _texts(scene(chart))
    assert "Cost of tree minus cost of forest" in shown, shown
    assert not any("b'" in line for line in shown), shown


@pytest.mark.parametrize(
    ("dtype", "values"), [("Int64", [1, 2]), ("boolean", [True, False]), ("Float64", [0.5, 2.5])]
)
def test_a_nullable_colour_column_with_a_missing_value_is_drawn_with_null(dtype, values):
    # pandas' nullable columns: the missing group is drawn as null, the others as numbers.
    frame = _data(values)
    frame["g"] = pd.array(values * 40 + [None] * 40 + values[:1] * 40, dtype=dtype)
    points = _points(frame, by=["g"])
    chart = cc.roc_chart(points, classifier="g", palette=cc.palette(frame["g"]))
    spec = chart_spec(chart)
    json.dumps(spec, allow_nan=False)
    # The ROC points (lifted table 0, as chart_tables reads it): a missing g is left out of
    # the row, which Vega reads as null.
    rows = [r for data in spec["datasets"].values() for r in data if r["costchart_table"] == 0]
    assert {r.get("g") for r in rows} == {*values, None}
    assert cc.chart_tables(chart)["points"]["g"].isna().sum() == points["g"].isna().sum() > 0
