"""``cheapest_set_chart``: the data it draws is what the public calls return (issue 35, item 2).

The strip's bars are the rows of :func:`costchart.cheapest_set` and tile the ``pc``
examined; the pooled envelope's stretches are :func:`costchart.cheapest_regions`; the
compiled scenegraph draws one bar per row, solid for the estimated cheapest; the views are
linked by the legend and hover selections as in ``roc_cost_chart``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scenegraph import data_marks, legend_labels, scene

import costchart as cc
from costchart._charts.cheapest_set import STRIP_FROM, STRIP_TO, strip_rows

DIGITS = 5
GRID = np.linspace(0, 1, 41)
OPTIONS = {"n_resamples": 500, "rng": 1, "pc": GRID}


def _data(*, groups=("p",), n=80, seed=0) -> pd.DataFrame:
    """Three classifiers scored on the same instances: one sharp, one fair, one weak."""
    rng = np.random.default_rng(seed)
    parts = []
    for group in groups:
        y = np.repeat([1, 0], n // 2)
        for model, k in (("sharp", 2.5), ("fair", 1.8), ("weak", 0.3)):
            parts.append(
                pd.DataFrame(
                    {
                        "g": group,
                        "m": model,
                        "i": np.arange(n),
                        "y": y,
                        "s": k * y + rng.normal(size=n),
                    }
                )
            )
    return pd.concat(parts, ignore_index=True)


def _chart(data, **options):
    by = ["g"] if data["g"].nunique() > 1 else None
    return cc.cheapest_set_chart(
        data, score="s", label="y", classifier="m", instance="i", by=by, **OPTIONS, **options
    )


def _drawn(chart) -> list[pd.DataFrame]:
    """Every table embedded in the spec, one per shared-data part."""
    frames = []
    for rows in chart.to_dict()["datasets"].values():
        frame = pd.DataFrame(rows)
        for _, part in frame.groupby("costchart_table"):
            frames.append(part.dropna(axis=1, how="all").reset_index(drop=True))
    return frames


def _strip(chart) -> pd.DataFrame:
    (strip,) = [f for f in _drawn(chart) if STRIP_FROM in f]
    return strip


@pytest.fixture(scope="module")
def two_groups():
    return _data(groups=("p", "q"))


@pytest.fixture(scope="module")
def chart(two_groups):
    return _chart(two_groups)


def test_the_chart_records_the_public_calls_tables(two_groups, chart):
    tables = cc.chart_tables(chart)
    found = cc.cheapest_set(
        two_groups, score="s", label="y", classifier="m", instance="i", by="g", **OPTIONS
    )
    pd.testing.assert_frame_equal(tables["cheapest_set"], found)
    points = cc.roc_points(two_groups, score="s", label="y", by=["g", "m"])
    thinned = cc.thin_points(points, max_points=100, max_total=3_000, by=["g", "m"])
    pd.testing.assert_frame_equal(tables["points"], thinned)
    pd.testing.assert_frame_equal(
        tables["cheapest_regions"], cc.cheapest_regions(points, by="g"), check_like=False
    )
    pd.testing.assert_frame_equal(tables["pooled_envelope"], cc.lower_envelope(points, by="g"))
    assert {"hull", "envelope", "operating_range", "envelope_range"} <= set(tables)


def test_the_strip_draws_the_cheapest_set_rows(chart):
    found = cc.chart_tables(chart)["cheapest_set"]
    strip = _strip(chart)
    assert len(strip) == len(found)
    for name in ("g", "m", "cheapest"):
        assert strip[name].tolist() == found[name].tolist()
    for name in ("pc_lo", "pc_hi", "difference", "lower", "upper"):
        np.testing.assert_array_equal(strip[name], found[name].round(DIGITS))
    # Each bar covers its interval, and reaches no further than half-way to the next pc.
    half = (GRID[1] - GRID[0]) / 2
    assert (strip[STRIP_FROM] <= strip["pc_lo"]).all()
    assert (strip[STRIP_TO] >= strip["pc_hi"]).all()
    assert (strip["pc_lo"] - strip[STRIP_FROM] <= half + 1e-9).all()
    assert (strip[STRIP_TO] - strip["pc_hi"] <= half + 1e-9).all()


def test_the_bars_tile_the_pc_examined(chart):
    strip = _strip(chart)
    for _, group in strip.groupby("g"):
        spans = group[[STRIP_FROM, STRIP_TO]].drop_duplicates().sort_values(STRIP_FROM)
        assert spans[STRIP_FROM].iloc[0] == GRID[0]
        assert spans[STRIP_TO].iloc[-1] == GRID[-1]
        np.testing.assert_array_equal(spans[STRIP_FROM].to_numpy()[1:], spans[STRIP_TO][:-1])
        # Every pc examined is inside exactly one bar of the group.
        inside = (GRID[:, None] >= spans[STRIP_FROM].to_numpy()) & (
            GRID[:, None] <= spans[STRIP_TO].to_numpy()
        )
        assert (inside.sum(axis=1) >= 1).all()


def test_strip_rows_meet_half_way_and_stay_at_the_grids_ends():
    table = pd.DataFrame(
        {
            "pc_lo": [0.1, 0.1, 0.3, 0.7],
            "pc_hi": [0.2, 0.2, 0.6, 0.9],
            "m": ["a", "b", "a", "a"],
            "cheapest": [True, False, True, True],
            "pc": [0.1, 0.2, 0.3, 0.7],
            "difference": [0.0, 0.1, 0.0, 0.0],
            "lower": [0.0, -0.1, 0.0, 0.0],
            "upper": [0.0, 0.2, 0.0, 0.0],
        }
    )
    drawn = strip_rows(table, [])
    assert drawn[STRIP_FROM].tolist() == [0.1, 0.1, 0.25, 0.65]
    assert drawn[STRIP_TO].tolist() == [0.25, 0.25, 0.65, 0.9]


def test_the_envelope_is_coloured_by_the_owner_cheapest_regions_names(chart):
    regions = cc.chart_tables(chart)["cheapest_regions"]
    (stretches,) = [f for f in _drawn(chart) if "costchart_stretch" in f and "m" in f]
    single = regions[regions["choice"] == "threshold"].reset_index(drop=True)
    ends = stretches.groupby("costchart_stretch", sort=True).agg(
        g=("g", "first"), m=("m", "first"), pc_lo=("pc", "min"), pc_hi=("pc", "max")
    )
    assert ends["g"].tolist() == single["g"].tolist()
    assert ends["m"].tolist() == single["m"].tolist()
    np.testing.assert_array_equal(ends["pc_lo"], single["pc_lo"].round(DIGITS))
    np.testing.assert_array_equal(ends["pc_hi"], single["pc_hi"].round(DIGITS))


def test_the_strips_cheapest_is_the_envelopes_owner(chart):
    """Inside each stretch of the envelope, the strip marks its owner the cheapest."""
    tables = cc.chart_tables(chart)
    regions, found = tables["cheapest_regions"], tables["cheapest_set"]
    owned = regions[regions["choice"] == "threshold"]
    checked = 0
    for row in owned.itertuples():
        for pc in GRID[(GRID > row.pc_lo) & (GRID < row.pc_hi)]:
            here = found[(found["g"] == row.g) & (found["pc_lo"] <= pc) & (found["pc_hi"] >= pc)]
            assert here.loc[here["cheapest"], "m"].tolist() == [row.m]
            checked += 1
    assert checked > 10


@pytest.mark.slow  # renders the chart: seconds
def test_the_scenegraph_draws_one_bar_per_row_solid_for_the_cheapest(chart):
    found = cc.chart_tables(chart)["cheapest_set"]
    graph = scene(chart)
    rects = [m for m in data_marks(graph) if m.marktype == "rect"]
    bars = [item for mark in rects for item in mark.items]
    assert len(bars) == len(found)
    opacities = sorted(item.get("fillOpacity", 1) for item in bars)
    assert opacities.count(1) == int(found["cheapest"].sum())
    assert set(opacities) == {0.35, 1}
    # Bars of one panel and row tile: their widths add up to the panel's width.
    widths = {}
    for mark in rects:
        for item in mark.items:
            key = (round(item["y"], 3), mark.name)
            widths[key] = widths.get(key, 0) + item["width"]
    assert max(widths.values()) <= 280 + 1e-6
    labels = legend_labels(graph)
    assert {"sharp", "fair", "weak"} <= set(labels)
    assert any("confidence set" in str(label) for label in labels)


def test_the_views_are_linked_by_the_legend_and_hover(chart):
    spec = chart.to_dict()
    names = [p["name"] for p in spec["params"]]
    (legend,) = [n for n in names if n.endswith("_legend")]
    assert any(n.endswith("_hover") for n in names)
    # The strip's bars fade with the legend like the lines.
    for panel in spec["concat"]:
        _roc, column = panel["hconcat"]
        strip = column["vconcat"][1]
        for layer in strip["layer"]:
            assert layer["mark"]["type"] == "rect"
            assert legend in str(layer["encoding"]["fillOpacity"])
    assert [p["title"]["text"] for p in spec["concat"]] == ["g: p", "g: q"]


def test_without_the_roc_view_and_with_one_group():
    data = _data()
    chart = _chart(data, show_roc=False, cost_lines="none")
    spec = chart.to_dict(validate=True)
    assert "hconcat" not in str(spec)
    _cost, strip = spec["vconcat"]
    assert len(strip["layer"]) == 2
    assert any(p["name"].endswith("_legend") for p in spec["params"])
    with_roc = _chart(data).to_dict()
    assert len(with_roc["hconcat"]) == 2


@pytest.mark.slow  # three charts: seconds
def test_identical_calls_give_identical_specs_and_distinct_data_distinct_names():
    data = _data()
    first, again = _chart(data).to_dict(), _chart(data).to_dict()
    assert first == again
    other = _chart(_data(seed=5)).to_dict()
    assert {p["name"] for p in first["params"]}.isdisjoint({p["name"] for p in other["params"]})


def test_bad_input_is_refused_with_the_fix():
    data = _data()
    with pytest.raises(cc.CostchartError, match="data has no column 'nope'; available columns"):
        cc.cheapest_set_chart(data, score="s", label="y", classifier="m", instance="nope")
    with pytest.raises(cc.CostchartError, match="show_roc"):
        _chart(data, show_roc="yes")
    with pytest.raises(cc.CostchartError, match="cost_lines"):
        _chart(data, cost_lines="some")
    # A classifier column named like a column costchart writes: the classifier is named.
    with pytest.raises(cc.CostchartError, match="the classifier column is named 'tpr'"):
        cc.cheapest_set_chart(
            data.rename(columns={"m": "tpr"}), score="s", label="y", classifier="tpr", instance="i"
        )


def test_a_group_examined_at_one_pc_gets_a_bar_of_some_width():
    table = pd.DataFrame(
        {
            "g": ["x", "x", "y"],
            "pc_lo": [0.3, 0.3, 0.0],
            "pc_hi": [0.3, 0.3, 0.0],
            "m": ["a", "b", "a"],
            "cheapest": [True, False, True],
            "pc": [0.3, 0.3, 0.0],
            "difference": [0.0, 0.1, 0.0],
            "lower": [0.0, -0.1, 0.0],
            "upper": [0.0, 0.2, 0.0],
        }
    )
    drawn = strip_rows(table, ["g"])
    assert drawn[STRIP_FROM].tolist() == [0.29, 0.29, 0.0]
    assert drawn[STRIP_TO].tolist() == [0.31, 0.31, 0.01]
