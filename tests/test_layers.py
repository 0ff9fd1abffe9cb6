import altair as alt
import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart import layers

POINTS = cc.roc_points(
    {"s": [0.9, 0.8, 0.7, 0.6, 0.4, 0.3], "y": [1, 1, 0, 1, 0, 0], "m": ["a"] * 6},
    score="s",
    label="y",
    by="m",
)
HULL = cc.roc_hull(POINTS)
ENVELOPE = cc.lower_envelope(POINTS)
RANGES = cc.operating_range(POINTS, of="envelope")
HOVER = alt.selection_point(
    name="costchart_hover", fields=["m", "line"], on="pointerover", empty=False
)
LEGEND = alt.selection_point(name="costchart_legend", fields=["m"], bind="legend")

FOLDS = cc.roc_points(
    {
        "s": [0.9, 0.8, 0.7, 0.6, 0.4, 0.3] * 2,
        "y": [1, 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 0],
        "fold": [0] * 6 + [1] * 6,
    },
    score="s",
    label="y",
    by="fold",
)
AVERAGE = cc.vertical_average(FOLDS, over="fold")
ROC_AVERAGE = cc.roc_average(FOLDS, over="fold")
COMPARISON = cc.compare(
    ENVELOPE.drop(columns="m"), cc.lower_envelope(FOLDS[FOLDS.fold == 1].drop(columns="fold"))
)
CHOICE = cc.neyman_pearson(POINTS, max_fpr=0.4)
HYBRID = cc.performance_independent(
    pd.DataFrame({"fpr": [0.1, 0.3], "tpr": [0.5, 0.9], "trained": [0.3, 0.7]}),
    trained_pc="trained",
).curve

BAND = cc.bootstrap_band(
    {"s": [0.9, 0.8, 0.7, 0.6, 0.4, 0.3], "y": [1, 1, 0, 1, 0, 0]},
    score="s",
    label="y",
    pc=[0.1, 0.5, 0.9],
)
DIFFERENCE = cc.difference_band(
    {
        "m": ["a"] * 6 + ["b"] * 6,
        "i": list(range(6)) * 2,
        "y": [1, 1, 0, 1, 0, 0] * 2,
        "s": [0.9, 0.8, 0.7, 0.6, 0.4, 0.3, 0.2, 0.8, 0.1, 0.6, 0.9, 0.3],
    },
    score="s",
    label="y",
    classifier="m",
    instance="i",
    pc=np.linspace(0, 1, 21),
)

LAYERS = {
    "band": lambda: layers.band(BAND),
    "significance": lambda: layers.significance(DIFFERENCE),
    "average_band": lambda: layers.average_band(AVERAGE),
    "average_band(sd)": lambda: layers.average_band(AVERAGE, spread="sd"),
    "roc_spread": lambda: layers.roc_spread(ROC_AVERAGE),
    "roc_spread(fpr)": lambda: layers.roc_spread(ROC_AVERAGE, axis="fpr"),
    "difference_curve": lambda: layers.difference_curve(COMPARISON.difference),
    "zero_rule": lambda: layers.zero_rule(),
    "better_regions": lambda: layers.better_regions(COMPARISON.better),
    "selected(roc)": lambda: layers.selected(CHOICE, space="roc"),
    "selected(cost)": lambda: layers.selected(CHOICE[CHOICE.role == "mixture"], space="cost"),
    "hybrid": lambda: layers.hybrid(HYBRID),
    "cost_lines(points)": lambda: layers.cost_lines(POINTS, classifier="m"),
    "cost_lines(lines)": lambda: layers.cost_lines(
        cc.to_cost_lines(POINTS), classifier="m", y_max=1
    ),
    "cost_lines(hover)": lambda: layers.cost_lines(
        POINTS.assign(line=range(len(POINTS))), classifier="m", hover=HOVER, legend=LEGEND
    ),
    "envelope": lambda: layers.envelope(ENVELOPE, classifier="m"),
    "trivial": lambda: layers.trivial(),
    "trivial_region": lambda: layers.trivial_region(y_max=1),
    "operating_ranges": lambda: layers.operating_ranges(RANGES, classifier="m"),
    "roc_curve": lambda: layers.roc_curve(POINTS, classifier="m"),
    "roc_markers": lambda: layers.roc_markers(POINTS),
    "hull": lambda: layers.hull(HULL, classifier="m"),
    "iso_lines": lambda: layers.iso_lines(HULL, iso=[0.2, 0.5, 0.9]),
    "pc_markers": lambda: layers.pc_markers({"3:1": 0.75}),
    "pc_labels": lambda: layers.pc_labels([0.25, 0.75]),
    "hover_targets(roc)": lambda: layers.hover_targets(
        POINTS.assign(line=0), space="roc", hover=HOVER, legend=LEGEND, classifier="m"
    ),
    "hover_targets(cost)": lambda: layers.hover_targets(
        POINTS.assign(line=0), space="cost", hover=HOVER
    ),
}


@pytest.mark.parametrize("name", LAYERS)
def test_layer_is_a_plain_chart_that_renders(name, render):
    chart = LAYERS[name]()
    assert type(chart) is alt.Chart
    if "(hover)" in name:  # a layer reacting to selections needs a layer that defines them
        targets = layers.hover_targets(
            POINTS.assign(line=range(len(POINTS))),
            space="cost",
            hover=HOVER,
            legend=LEGEND,
            classifier="m",
        )
        chart = targets + chart
    render(chart)


def test_layers_compose_with_operators(render):
    # One y_max for every layer: each layer's default fits only what it draws itself.
    chart = (
        layers.trivial_region(y_max=0.5)
        + layers.cost_lines(POINTS, y_max=0.5)
        + layers.envelope(ENVELOPE, y_max=0.5)
    )
    spec, _ = render(chart.properties(width=200, height=200))
    assert len(spec["layer"]) == 3
    both = chart | (layers.roc_curve(POINTS) + layers.hull(HULL))
    render(both)


def _line_points(chart, size=100):
    """(x, y) of every vertex of the line marks Vega draws, in data units (pc, cost)."""
    import vl_convert as vlc

    spec = chart.properties(width=size, height=size).to_dict()
    scene = vlc.vegalite_to_scenegraph(spec, vl_version="6.4")["scenegraph"]
    lines = []

    def walk(node):
        if node.get("marktype") == "line" and node.get("role") == "mark":
            lines.append([(item["x"], item["y"]) for item in node["items"]])
        for child in node.get("items", []):
            if isinstance(child, dict):
                walk(child)

    walk(scene)
    return [[(x / size, (size - y) / size) for x, y in line] for line in lines if line]


def test_cost_lines_are_cut_at_the_top_of_the_axis():
    # (0.8, 0.8): from cost 0.8 at pc 0 to 0.2 at pc 1; it meets 0.5 at pc 0.5.
    # (0.9, 0.05): wholly above 0.5, not drawn.  (0.1, 0.6): wholly visible.
    table = pd.DataFrame({"fpr": [0.8, 0.9, 0.1], "tpr": [0.8, 0.05, 0.6], "line": [0, 1, 2]})
    drawn = sorted(_line_points(layers.cost_lines(table, y_max=0.5)))
    y_scale = 0.5  # the cost axis runs from 0 to 0.5 over the panel's height
    ends = [[(round(pc, 6), round(height * y_scale, 6)) for pc, height in line] for line in drawn]
    assert ends == [[(0.0, 0.1), (1.0, 0.4)], [(0.5, 0.5), (1.0, 0.2)]]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: layers.cost_lines(POINTS, y_max=0), r"y_max=0\.0 is outside \(0, 1\]"),
        (
            lambda: layers.envelope(POINTS),
            r"the table given to envelope has no column 'pc'; available columns: 'm', 'threshold'.*Pass the costchart table it draws",
        ),
        (lambda: layers.iso_lines(HULL), r"iso_lines needs either slope= or iso="),
        (
            lambda: layers.hover_targets(POINTS, space="3d", hover=HOVER),
            r"space='3d' is not an option",
        ),
        (lambda: layers.pc_markers({"x": 2.0}), r"markers=2\.0 is outside \[0, 1\]"),
        (
            lambda: layers.average_band(AVERAGE, spread="iqr"),
            r"spread='iqr' is not an option; pass one of 'range', 'sd'",
        ),
        (lambda: layers.roc_spread(ROC_AVERAGE, axis="z"), r"axis='z' is not an option"),
        (lambda: layers.selected(CHOICE, space="pr"), r"space='pr' is not an option"),
        (lambda: layers.cost_lines(POINTS, y_max=[0.5, 1]), r"y_max=\[0\.5, 1\] must be a number"),
        (lambda: layers.trivial(y_max=0), r"y_max=0(\.0)? is outside \(0, 1\]"),
        (lambda: layers.pc_labels([0.5], y_max="a"), r"y_max='a' must be a number"),
        (
            lambda: layers.pc_markers("abc"),
            r"markers='abc' must be a number or numbers, not str; pass a pc in \[0, 1\], a list of",
        ),
        (lambda: layers.pc_markers(5), r"markers=5\.0 is outside \[0, 1\]"),  # the word's range
        (
            lambda: layers.cost_lines([1, 2]),
            r"the table given to cost_lines must be a pandas, polars or pyarrow DataFrame.*got list",
        ),
        (lambda: layers.envelope(None), r"the table given to envelope must be a pandas.*NoneType"),
        (
            lambda: layers.roc_curve(POINTS, classifier="model"),
            r"the table given to roc_curve has no column 'model'; available columns: 'm'.*classifier=",
        ),
        (
            lambda: layers.hull(HULL, classifier=["m"]),
            r"classifier= takes a column name, but got a list",
        ),
        (
            lambda: layers.envelope(ENVELOPE, by="fold"),
            r"has no column 'fold'; available columns: 'm'.*by= must name its columns",
        ),
        (lambda: layers.band(BAND, by=3), r"by=3 must be a column name or a list"),
        (
            lambda: layers.iso_lines(HULL, slope=[-1]),
            r"slope=-1\.0 must be numbers of at least 0",
        ),
        (lambda: layers.iso_lines(HULL, slope="x"), r"slope='x' must be numbers"),
        (
            lambda: layers.iso_lines(HULL, iso=[[0.5]]),
            r"iso=\[\[0\.5\]\] must be a list of operating points",
        ),
        (
            lambda: layers.iso_lines(HULL.assign(pc_lo=0.9), iso=[0.5]),
            r"no vertex of the hull \('a',\) is optimal at pc=0\.5 \(slope 1\)",
        ),
        (
            lambda: layers.trivial(facet="abc"),
            r"facet= must be a pandas DataFrame of facet values",
        ),
        (
            lambda: layers.trivial(facet=pd.DataFrame({"trivial": ["x"]})),
            r"facet= has the column 'trivial', which the layer's own rows use",
        ),
    ],
)
def test_layer_errors(call, message):
    with pytest.raises(cc.CostchartError, match=message):
        call()


@pytest.mark.parametrize("convert", ["polars", "pyarrow", "dict"])
def test_layers_take_polars_pyarrow_and_dicts(convert, render):
    import polars as pl
    import pyarrow as pa

    to = {
        "polars": pl.from_pandas,
        "pyarrow": pa.Table.from_pandas,
        "dict": lambda frame: {c: frame[c].to_numpy() for c in frame.columns},
    }[convert]
    chart = (  # one y_max: a layer's own default fits what it draws
        layers.trivial_region(y_max=0.5)
        + layers.cost_lines(to(POINTS), classifier="m", y_max=0.5)
        + layers.envelope(to(ENVELOPE), classifier="m", y_max=0.5)
        + layers.band(to(BAND), y_max=0.5)
    )
    spec, _ = render(chart)
    assert [len(rows) for rows in spec["datasets"].values()].count(len(POINTS)) == 1


def test_significance_skips_empty_groups_and_missing_flags():
    empty = pd.DataFrame({"pc": [], "significant": [], "difference": []})
    assert layers.significance(empty).data.empty
    # A missing (NaN) flag is not a significant difference.
    table = pd.DataFrame(
        {"pc": [0.1, 0.2, 0.3], "significant": [np.nan, 0.0, np.nan], "difference": [1.0] * 3}
    )
    assert layers.significance(table).data.empty


@pytest.mark.parametrize("bad", [9, "hover", None])
def test_hover_targets_need_a_selection(bad, demo_points):
    with pytest.raises(cc.CostchartError, match=r"hover=.* must be an Altair selection parameter"):
        cc.layers.hover_targets(demo_points, space="roc", hover=bad)
    hover = alt.selection_point(name="costchart_hover", fields=["classifier"])
    with pytest.raises(cc.CostchartError, match=r"legend=3 must be an Altair selection"):
        cc.layers.hover_targets(demo_points, space="roc", hover=hover, legend=3)


def test_layers_refuse_duplicated_column_names():
    points = pd.DataFrame({"threshold": [1.0], "fpr": [0.2], "tpr": [0.6]})
    doubled = pd.concat([points, points[["tpr"]]], axis=1)
    with pytest.raises(cc.CostchartError, match=r"more than one column named 'tpr'"):
        cc.layers.roc_curve(doubled)
