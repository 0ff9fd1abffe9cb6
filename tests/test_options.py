"""Options declared once: every data layer takes LayerOptions, every chart Look.

The signatures are read (``inspect.signature``), and each shared layer option is shown
to do something: a value changes the layer's spec.
"""

import dataclasses
import inspect
import warnings

import altair as alt
import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart import layers
from costchart._charts._options import LOOK_OPTIONS, Look
from costchart.layers._options import LAYER_OPTIONS, LayerOptions

RAW = pd.DataFrame(
    {
        "s": np.tile([0.9, 0.8, 0.7, 0.6, 0.4, 0.3, 0.2, 0.1], 4),
        "y": np.tile([1, 1, 0, 1, 0, 1, 0, 0], 4),
        "m": np.repeat(["a", "a", "b", "b"], 8),
        "g": np.repeat(["x", "y", "x", "y"], 8),
    }
)
POINTS = cc.roc_points(RAW, score="s", label="y", by=["m", "g"])
HULL = cc.roc_hull(POINTS)
FOLDS = cc.roc_points(RAW.rename(columns={"g": "fold"}), score="s", label="y", by=["m", "fold"])
BAND = cc.bootstrap_band(RAW, score="s", label="y", by=["m", "g"], pc=[0.0, 0.3, 0.6, 1.0])
PAIRED = RAW.assign(i=np.tile(np.arange(8), 4), h=np.repeat(["p", "q", "p", "q"], 8))
# Two groupings of pairs (g, h), the classifier column m making the pair.
PAIRED = pd.concat([PAIRED, PAIRED.assign(g=PAIRED.g + "2")], ignore_index=True)
DIFFERENCE = cc.difference_band(
    PAIRED, score="s", label="y", classifier="m", instance="i", by=["g", "h"], pc=[0.2, 0.5]
)
ONE = cc.roc_points(RAW[RAW.m == "a"], score="s", label="y", by=())
OTHER = cc.roc_points(RAW[RAW.m == "b"], score="s", label="y", by=())
BETTER = cc.compare(cc.lower_envelope(ONE), cc.lower_envelope(OTHER)).better
HYBRID = cc.performance_independent(
    pd.DataFrame({"fpr": [0.1, 0.3], "tpr": [0.5, 0.9], "trained": [0.3, 0.7]}),
    trained_pc="trained",
).curve
HOVER = alt.selection_point(name="costchart_hover", fields=["m", "line"], on="pointerover")
OTHER_HOVER = alt.selection_point(name="costchart_other", fields=["m"], on="pointerover")
LEGEND = alt.selection_point(name="costchart_legend", fields=["m"], bind="legend")


def _grouped(table: pd.DataFrame) -> pd.DataFrame:
    return table.assign(m=["a", "b"] * (len(table) // 2) + ["a"] * (len(table) % 2), g="x")


#: Every data layer: how to call it on a table with a classifier column and another
#: grouping column, and the values of the shared options that tell it apart.
CALLS = {
    "cost_lines": (lambda **o: layers.cost_lines(POINTS, **o), {}),
    "envelope": (lambda **o: layers.envelope(cc.lower_envelope(POINTS), **o), {}),
    "operating_ranges": (
        lambda **o: layers.operating_ranges(cc.operating_range(POINTS, of="envelope"), **o),
        {},
    ),
    "roc_curve": (lambda **o: layers.roc_curve(POINTS, **o), {}),
    "roc_markers": (lambda **o: layers.roc_markers(POINTS, **o), {}),
    "hull": (lambda **o: layers.hull(HULL, **o), {}),
    "iso_lines": (lambda **o: layers.iso_lines(HULL, iso=[0.5], **o), {}),
    "roc_spread": (
        lambda **o: layers.roc_spread(cc.roc_average(FOLDS, over="fold", by="m"), **o),
        {"by": "m", "classifier": "m", "tooltip": ["m"]},
    ),
    "average_band": (
        lambda **o: layers.average_band(cc.vertical_average(FOLDS, over="fold", by="m"), **o),
        {"by": [], "classifier": "m", "tooltip": ["m"]},  # by default, every grouping column
    ),
    "band": (lambda **o: layers.band(BAND, **o), {}),
    "degenerate_ticks": (lambda **o: layers.degenerate_ticks(BAND, **o), {}),
    "difference_curve": (
        lambda **o: layers.difference_curve(DIFFERENCE, **o),
        {"classifier": "g", "by": "h", "tooltip": ["h"]},
    ),
    "significance": (
        lambda **o: layers.significance(DIFFERENCE, **o),
        {"classifier": "g", "by": "h", "tooltip": ["h"]},
    ),
    "better_regions": (
        lambda **o: layers.better_regions(BETTER.assign(m="a", g="x"), **o),
        {},
    ),
    "hybrid": (lambda **o: layers.hybrid(_grouped(HYBRID), **o), {}),
    "selected": (
        lambda **o: layers.selected(cc.neyman_pearson(POINTS, max_fpr=0.4), space="roc", **o),
        {},
    ),
    "hover_targets": (
        lambda **o: layers.hover_targets(
            POINTS.assign(line=0), space="cost", **{"hover": HOVER, **o}
        ),
        {"hover": OTHER_HOVER},
    ),
}

#: What each shared option is set to, to show it changes the spec.
VALUES = {
    "classifier": "m",
    "by": "g",
    "palette": {"a": "#ff0000", "b": "#00ff00", "x": "#0000ff", "p": "#ff00ff"},
    "legend": LEGEND,
    "hover": HOVER,
    "tooltip": ["g"],
    "mark": {"strokeWidth": 7},
}


def _data_layers():
    """Every public layer that draws a table (its first parameter is ``table``)."""
    for name in layers.__all__:
        function = getattr(layers, name)
        parameters = list(inspect.signature(function).parameters)
        if parameters and parameters[0] == "table":
            yield name


def test_every_data_layer_is_exercised_here():
    assert sorted(_data_layers()) == sorted(CALLS)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_data_layer_takes_the_shared_options(name):
    parameters = inspect.signature(getattr(layers, name)).parameters
    shared = [p for p in parameters.values() if p.name in LAYER_OPTIONS]
    assert [p.name for p in shared] == list(LAYER_OPTIONS)
    defaults = {f.name: f.default for f in dataclasses.fields(LayerOptions)}
    for parameter in shared:
        assert parameter.kind is parameter.KEYWORD_ONLY
        assert parameter.default is defaults[parameter.name]
    assert "color" not in parameters and "detail" not in parameters


def _spec(chart) -> dict:
    spec = chart.to_dict()
    spec.pop("datasets", None)
    spec.pop("data", None)  # the data is the same table; the options are in the rest
    return spec


@pytest.mark.parametrize("option", LAYER_OPTIONS)
@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_shared_option_changes_the_layer(name, option):
    call, values = CALLS[name]
    value = values.get(option, VALUES[option])
    # A palette colours the classifier column; compare it with the classifier alone.
    base = {"classifier": values.get("classifier", "m")} if option == "palette" else {}
    plain = _spec(call(**base))
    given = _spec(call(**base, **{option: value}))
    assert given != plain, f"{name}({option}={value!r}) draws the same as without it"


@pytest.mark.parametrize(
    ("old", "new", "value"), [("color", "classifier", "m"), ("detail", "by", "g")]
)
def test_old_layer_names_warn_and_draw_the_same(old, new, value):
    with pytest.warns(FutureWarning, match=rf"cost_lines\({old}=\.\.\.\) is deprecated.*{new}="):
        old_spec = layers.cost_lines(POINTS, **{old: value}).to_dict()
    assert old_spec == layers.cost_lines(POINTS, **{new: value}).to_dict()
    with pytest.raises(cc.CostchartError, match=rf"{old}= is the deprecated name of {new}="):
        layers.cost_lines(POINTS, **{old: value, new: value})


def test_a_layer_refuses_an_unknown_option_naming_its_options():
    with pytest.raises(cc.CostchartError, match=r"cost_lines\(\).*colour.*its options are"):
        layers.cost_lines(POINTS, colour="m")


CHARTS = {
    "cost_chart": lambda **o: cc.cost_chart(POINTS, **o),
    "roc_chart": lambda **o: cc.roc_chart(POINTS, **o),
    "one_roc_chart": lambda **o: cc.roc_chart(
        POINTS[POINTS.g == "x"].drop(columns="g"), classifier="m", **o
    ),
    "roc_cost_chart": lambda **o: cc.roc_cost_chart(POINTS, **o),
    "band_chart": lambda **o: cc.band_chart(BAND, **o),
    "difference_chart": lambda **o: cc.difference_chart(DIFFERENCE, **o),
    "average_chart": lambda **o: cc.average_chart(FOLDS, over="fold", **o),
    "pr_chart": lambda **o: cc.pr_chart(POINTS, **o),
    "decision_curve_chart": lambda **o: cc.decision_curve_chart(
        cc.net_benefit(RAW, score="s", label="y", by=["m", "g"], thresholds=[0.2, 0.5]), **o
    ),
    "threshold_choice_chart": lambda **o: cc.threshold_choice_chart(
        RAW, score="s", label="y", classifier="m", **o
    ),
    "explorer": lambda **o: cc.explorer(POINTS[POINTS.g == "x"], classifier="m", **o),
    "cheapest_set_chart": lambda **o: cc.cheapest_set_chart(
        PAIRED[PAIRED.g.isin(["x", "y"])],
        score="s",
        label="y",
        classifier="m",
        instance="i",
        by="g",
        n_resamples=100,
        rng=0,
        pc=[0.2, 0.5, 0.8],
        **o,
    ),
}


def test_every_chart_is_exercised_here():
    charts = {
        name
        for name in cc.__all__
        if (name.endswith("_chart") or name == "explorer") and name != "coverage_chart"
    }
    assert charts == set(CHARTS) - {"one_roc_chart"}


@pytest.mark.parametrize("name", sorted(set(CHARTS) - {"one_roc_chart"}))
def test_every_chart_takes_the_look_options_with_one_default(name):
    parameters = inspect.signature(getattr(cc, name)).parameters
    look = [p for p in parameters.values() if p.name in LOOK_OPTIONS]
    assert [p.name for p in look] == list(LOOK_OPTIONS)
    assert list(parameters)[-len(LOOK_OPTIONS) :] == list(LOOK_OPTIONS)
    defaults = {f.name: f.default for f in dataclasses.fields(Look)}
    for parameter in look:
        assert parameter.kind is parameter.KEYWORD_ONLY
        assert parameter.default == defaults[parameter.name]
    assert not {"color", "key", "chance", "auc", "hull", "band", "roc"} & set(parameters)


@pytest.mark.parametrize("name", sorted(CHARTS))
def test_a_title_reaches_every_chart(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)  # a tiny data set
        spec = CHARTS[name](title="Costs of a and b").to_dict()
    assert "Costs of a and b" in str(spec.get("title"))


@pytest.mark.parametrize(
    ("name", "old", "new", "value"),
    [
        ("roc_chart", "color", "classifier", "m"),
        ("roc_chart", "key", "show_key", False),
        ("roc_chart", "chance", "show_chance", False),
        ("one_roc_chart", "auc", "show_auc", True),
        ("pr_chart", "hull", "show_hull", False),
        ("average_chart", "roc", "show_roc", False),
    ],
)
def test_old_chart_names_warn_and_draw_the_same(name, old, new, value):
    with pytest.warns(
        FutureWarning, match=rf"{name.removeprefix('one_')}\({old}=\.\.\.\) is deprecated.*{new}="
    ):
        old_spec = CHARTS[name](**{old: value}).to_dict()
    assert old_spec == CHARTS[name](**{new: value}).to_dict()


def test_the_explorer_refuses_look_options_it_cannot_draw():
    with pytest.raises(cc.CostchartError, match=r"explorer\(\) takes no columns=2"):
        CHARTS["explorer"](columns=2)
    with pytest.raises(
        cc.CostchartError, match=r"explorer\(\) takes no show_key=False: it has no key"
    ):
        CHARTS["explorer"](show_key=False)


def test_the_iso_performance_layer_is_iso_lines_with_a_warning():
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        old = layers.iso_performance(HULL, pc=[0.5], classifier="m").to_dict()
    messages = [str(w.message) for w in said if w.category is FutureWarning]
    assert any("layers.iso_performance is deprecated" in m and "iso_lines" in m for m in messages)
    assert any("iso_lines(pc=...) is deprecated" in m and "iso=" in m for m in messages)
    assert old == layers.iso_lines(HULL, iso=[0.5], classifier="m").to_dict()
    assert "iso_performance" not in layers.__all__


@pytest.mark.parametrize(
    "call",
    [
        lambda **o: cc.significant_regions(DIFFERENCE, **o),
        lambda **o: layers.significance(DIFFERENCE, **o),
        lambda **o: layers.difference_curve(DIFFERENCE, **o),
        lambda **o: cc.difference_chart(DIFFERENCE, **o),
    ],
)
def test_the_compared_pair_is_a_and_b_as_in_difference_band(call):
    new = call(a="logistic", b="tree")
    with pytest.warns(FutureWarning, match=r"names=\.\.\.\) is deprecated.*pass a= and b="):
        old = call(names=("logistic", "tree"))
    if isinstance(new, pd.DataFrame):
        pd.testing.assert_frame_equal(old, new)
    else:
        assert old.to_dict() == new.to_dict()
    with pytest.raises(cc.CostchartError, match=r"b=None must be a non-empty string.*a= and b="):
        call(a="logistic")


def test_confusion_band_of_envelope_is_the_old_envelope_flag():
    counts = {"TP": [16], "FN": [4], "FP": [4], "TN": [6]}
    new = cc.confusion_band(
        counts, tp="TP", fn="FN", fp="FP", tn="TN", pc=[0.2, 0.8], of="envelope"
    )
    with pytest.warns(FutureWarning, match=r"confusion_band\(envelope=True\).*of='envelope'"):
        old = cc.confusion_band(
            counts, tp="TP", fn="FN", fp="FP", tn="TN", pc=[0.2, 0.8], envelope=True
        )
    pd.testing.assert_frame_equal(old, new)
    lines = cc.confusion_band(counts, tp="TP", fn="FN", fp="FP", tn="TN", pc=[0.2, 0.8])
    assert not lines.equals(new)  # of= changes the band
    with pytest.raises(cc.CostchartError, match=r"of='hull'"):
        cc.confusion_band(counts, tp="TP", fn="FN", fp="FP", tn="TN", of="hull")


LOOKS = {
    "size": 150,
    "subtitle": "and a subtitle",
    "show_key": False,
    "palette": {"a": "#ff0000", "b": "#00ff00", "x": "#0000ff", "y": "#ff00ff"},
}


@pytest.mark.parametrize("option", sorted(LOOKS))
@pytest.mark.parametrize("name", sorted(set(CHARTS) - {"one_roc_chart"}))
def test_every_look_option_changes_the_chart(name, option):
    if name == "explorer" and option == "show_key":
        pytest.skip("the explorer has no key: it refuses show_key=False (tested above)")
    base = {"title": "T"}  # a subtitle needs a title
    if option == "palette" and name not in (
        "explorer",
        "threshold_choice_chart",
        "difference_chart",
        "cheapest_set_chart",
    ):
        base["classifier"] = "m"  # a palette colours the classifiers (those charts name them)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)  # a tiny data set
        plain = CHARTS[name](**base).to_dict()
        given = CHARTS[name](**base, **{option: LOOKS[option]}).to_dict()
    assert given != plain, f"{name}({option}=...) draws the same as without it"
