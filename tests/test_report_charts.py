"""Report-ready charts: keys, cuts at y_max, titles, colours, controls, independent charts.

Assertions read what is drawn (the scenegraph vl-convert renders), not only the spec.
"""

import warnings

import altair as alt
import numpy as np
import pandas as pd
import pytest
import vl_convert as vlc
from scenegraph import data_marks, legend_labels, legend_symbols, scene, texts

import costchart as cc
from costchart import layers
from costchart._charts import drawn_tables
from costchart._charts._drawn import LINES_PER_PANEL, SHOWN
from costchart._cost.geometry import fitted_top
from costchart._export.image import chart_spec, vl_version
from costchart.layers._base import CHANCE, INK, MUTED, REGION


@pytest.fixture(scope="module")
def sonar(demo_points):
    return demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")


@pytest.fixture(scope="module")
def folds():
    from costchart.datasets import load_predictions

    data = load_predictions()
    diabetes = data[data.dataset == "diabetes"]
    return cc.roc_points(diabetes, score="score", label="label", by=["classifier", "fold"])


COST_KEY = [
    "worse than a trivial classifier",
    "cost lines (hull vertices, and a sample of the other ROC points)",  # 314 points in a panel
    "trivial classifiers",
    "lower envelope",
    "operating range",
]
ROC_KEY = ["ROC curve", "ROC convex hull", "ROC points (thresholds)", "chance diagonal"]


def test_cost_chart_key_names_every_element_as_drawn(sonar):
    graph = scene(cc.cost_chart(sonar, classifier="classifier"))
    labels = legend_labels(graph)
    assert labels[:3] == ["logistic", "naive bayes", "tree"]
    # The cost axis fits the envelopes, below 0.5, and the key says so last.
    top = fitted_top(cc.lower_envelope(sonar, by="classifier")["cost"])
    note = f"cost axis to {top:g}, fitted to the curves"
    assert top < 0.5 and labels[3:] == [*COST_KEY, note]
    symbols = legend_symbols(graph)
    assert symbols["operating range"]["strokeDash"] == [5, 4]
    assert symbols["lower envelope"]["strokeWidth"] == 2.5
    assert symbols["lower envelope"]["stroke"] == INK
    assert symbols["worse than a trivial classifier"]["fill"] == REGION
    # Each dashed key entry has drawn marks with the same dash.
    drawn_dashes = {
        tuple(item.get("strokeDash") or ()) for mark in data_marks(graph) for item in mark.items
    }
    assert (5, 4) in drawn_dashes
    marked = scene(cc.cost_chart(sonar, classifier="classifier", markers={"3:1": 0.75}))
    assert legend_labels(marked)[-2:] == ["marked operating points (pc)", note]


def test_roc_chart_key_and_chance_diagonal(sonar):
    graph = scene(cc.roc_chart(sonar, classifier="classifier", iso=[0.3]))
    assert legend_labels(graph)[3:] == [*ROC_KEY[:3], "iso-performance line (pc = 0.3)", ROC_KEY[3]]
    assert legend_symbols(graph)["ROC convex hull"]["strokeDash"] == [6, 3]
    diagonal = [
        m for m in data_marks(graph) if m.marktype == "line" and m.items[0].get("stroke") == CHANCE
    ]
    assert len(diagonal) == 1
    ends = [(i["x"], i["y"]) for i in diagonal[0].items]
    assert ends == [(0, 280), (280, 0)]
    without = scene(cc.roc_chart(sonar, classifier="classifier", show_chance=False))
    assert "chance diagonal" not in legend_labels(without)
    assert not any(m.items and m.items[0].get("stroke") == CHANCE for m in data_marks(without))


def test_key_can_be_turned_off(sonar):
    graph = scene(cc.cost_chart(sonar, classifier="classifier", show_key=False))
    assert legend_labels(graph) == ["logistic", "naive bayes", "tree"]


def _inside(graph, size):
    """Every drawn data item lies inside the panel (0 <= y <= size)."""
    bad = []
    for mark in data_marks(graph):
        for item in mark.items:
            for end in ("y", "y2"):
                value = item.get(end)
                if value is not None and not -0.5 <= value <= size + 0.5:
                    bad.append((mark.name, mark.marktype, end, value))
    return bad


@pytest.mark.parametrize(
    "build",
    [
        lambda p, f: cc.cost_chart(p, classifier="classifier", y_max=0.05),
        lambda p, f: cc.roc_cost_chart(p, classifier="classifier", y_max=0.05),
        lambda p, f: cc.average_chart(f, over="fold", classifier="classifier", y_max=0.05),
        lambda p, f: cc.average_chart(
            f, over="fold", classifier="classifier", y_max=0.05, spread="sd", show_roc=False
        ),
    ],
    ids=["cost", "roc_cost", "average", "average_sd"],
)
def test_zoom_cuts_every_mark_at_y_max(build, sonar, folds):
    graph = scene(build(sonar, folds))
    assert _inside(graph, 280) == []
    assert graph["height"] < 280 + 200  # the image stays its size (was 5,684 px tall)


def test_zoomed_envelope_stops_at_the_top_instead_of_running_along_it(sonar):
    envelope = layers.envelope(cc.lower_envelope(sonar), classifier="classifier", y_max=0.1)
    drawn = envelope.data
    # Crossing points are added at y_max and the parts above are gaps (NaN), not clamped.
    assert np.nanmax(drawn.cost) == pytest.approx(0.1)
    assert drawn.cost.isna().any()
    assert (drawn.cost.dropna() <= 0.1 + 1e-12).all()


def test_title_and_subtitle(sonar):
    graph = scene(cc.cost_chart(sonar, title="Sonar", subtitle="three classifiers"))
    assert {"Sonar", "three classifiers"} <= set(texts(graph))
    with pytest.raises(cc.CostchartError, match=r"title=3 must be a string"):
        cc.cost_chart(sonar, title=3)
    with pytest.raises(cc.CostchartError, match=r"subtitle= needs a title="):
        cc.roc_chart(sonar, subtitle="x")


def test_auc_in_the_legend_equals_the_full_curves_area(sonar):
    graph = scene(cc.roc_chart(sonar, classifier="classifier", show_auc=True, max_points=10))
    areas = cc.auc(sonar, by="classifier")  # all points, not the thinned ones drawn
    expected = [f"{name} (AUC {area:.3f})" for name, area in zip(areas.classifier, areas.auc)]
    assert legend_labels(graph)[:3] == expected


def test_auc_with_facets_is_written_in_each_panel(demo_points):
    graph = scene(
        cc.roc_chart(demo_points, classifier="classifier", facet="dataset", show_auc=True)
    )
    areas = cc.auc(demo_points, by=["dataset", "classifier"])
    written = set(texts(graph))
    for name, area in zip(areas.classifier, areas.auc):
        assert f"{name}: AUC {area:.3f}" in written


def test_auc_needs_one_curve_per_colour(folds):
    with pytest.raises(cc.CostchartError, match=r"show_auc=True needs one curve per colour value"):
        cc.roc_chart(folds, classifier="classifier", show_auc=True)


@pytest.mark.slow
def test_roc_cost_chart_columns_lay_pairs_in_a_grid(demo_points):
    one = cc.roc_cost_chart(demo_points, classifier="classifier", facet="dataset", size=120)
    two = cc.roc_cost_chart(
        demo_points, classifier="classifier", facet="dataset", size=120, columns=2
    )
    spec = two.to_dict()
    assert spec["columns"] == 2 and len(spec["concat"]) == 4
    titles = [pair["title"]["text"] for pair in spec["concat"]]
    assert titles == [f"dataset: {name}" for name in sorted(demo_points.dataset.unique())]
    tall, wide = scene(one), scene(two)
    assert wide["height"] < 0.65 * tall["height"]


@pytest.mark.parametrize("columns", [2, 4])
def test_facetable_charts_take_columns(columns, demo_points):
    for build in (cc.cost_chart, cc.roc_chart):
        spec = build(
            demo_points, classifier="classifier", facet="dataset", columns=columns
        ).to_dict()
        assert spec["columns"] == columns


def _cost_line_count(chart):
    graph = scene(chart)
    return sum(
        len(m.items) > 0
        for m in data_marks(graph)
        if m.marktype == "line" and m.items and m.items[0].get("strokeWidth") == 0.8
    )


def test_cost_lines_all_hull_none(sonar):
    hull = cc.roc_hull(sonar)
    tables = drawn_tables(sonar, color="classifier")
    # 314 points in one panel: the hull vertices' lines and a sample of the others.
    shown = tables.points[tables.points[SHOWN]]
    assert tables.points.on_hull.sum() < len(shown) <= LINES_PER_PANEL + tables.points.on_hull.sum()
    visible = _visible_lines(shown)
    assert _cost_line_count(cc.cost_chart(sonar, classifier="classifier")) == visible
    # A panel of few points draws every line.
    tree = sonar[sonar.classifier == "tree"].drop(columns="classifier")
    assert len(tree) <= LINES_PER_PANEL
    assert _cost_line_count(cc.cost_chart(tree)) == _visible_lines(drawn_tables(tree).points)
    hull_lines = _visible_lines(tables.points[tables.points.on_hull])
    assert hull_lines < visible
    assert _cost_line_count(cc.cost_chart(sonar, classifier="classifier", cost_lines="hull")) == (
        hull_lines
    )
    assert len(hull) >= hull_lines
    assert _cost_line_count(cc.cost_chart(sonar, classifier="classifier", cost_lines="none")) == 0
    with pytest.raises(cc.CostchartError, match=r"cost_lines='some' is not an option"):
        cc.cost_chart(sonar, cost_lines="some")


def _visible_lines(points, y_max=0.5):
    """Cost lines with some part under y_max: fpr (at pc 0) or fnr (at pc 1) below it."""
    return int(((points.fpr <= y_max) | (1 - points.tpr <= y_max)).sum())


def test_cost_lines_have_tooltips_on_their_hover_targets(sonar):
    spec = cc.cost_chart(sonar, classifier="classifier").to_dict()
    target = spec["layer"][0]
    assert target["name"].startswith("costchart_cost_targets")
    shown = [t.get("title", t["field"]) for t in target["encoding"]["tooltip"]]
    assert shown[:4] == ["classifier", "threshold", "FPR", "TPR"]


def test_classifiers_keep_their_colours_across_charts(demo_points):
    colours = cc.palette(demo_points.classifier)
    two = demo_points[demo_points.classifier.isin(["naive bayes", "tree"])]
    sonar = demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")
    seen = {}
    for chart in (
        cc.cost_chart(two, classifier="classifier", facet="dataset", palette=colours),
        cc.roc_chart(sonar, classifier="classifier", palette=colours),
        cc.roc_cost_chart(two[two.dataset == "credit"], classifier="classifier", palette=colours),
    ):
        for label, symbol in legend_symbols(scene(chart)).items():
            if label in colours:
                seen.setdefault(label, set()).add(symbol.get("stroke") or symbol.get("fill"))
    assert seen == {name: {colours[name]} for name in colours}


def test_default_colours_are_colour_blind_safe_and_sorted(sonar):
    symbols = legend_symbols(scene(cc.roc_chart(sonar, classifier="classifier")))
    assert [symbols[n]["stroke"] for n in ("logistic", "naive bayes", "tree")] == list(
        cc.palette(["logistic", "naive bayes", "tree"]).values()
    )


def test_palette_is_checked(sonar):
    with pytest.raises(cc.CostchartError, match=r"palette=.* must be a dict"):
        cc.cost_chart(sonar, classifier="classifier", palette=["red"])
    with pytest.raises(cc.CostchartError, match=r"palette\['tree'\]=3 is not a colour"):
        cc.cost_chart(sonar, classifier="classifier", palette={"tree": 3})
    # checked even when no value of it is drawn: a colour Vega cannot read draws black
    with pytest.raises(cc.CostchartError, match=r"palette\['x'\]='notacolor' is not a colour"):
        cc.cost_chart(sonar, palette={"x": "notacolor"})


def test_composed_charts_keep_independent_selections(sonar):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Charts of identical content share names unless one is given its own.
        both = cc.roc_cost_chart(sonar, classifier="classifier") & cc.roc_cost_chart(
            sonar, classifier="classifier", name="second"
        )
        spec = both.to_dict()
    params = spec["params"]  # Altair lifts them to the top, each naming its own views
    names = [p["name"] for p in params]
    assert len(names) == len(set(names)) == 4
    hovers = [set(p["views"]) for p in params if p["name"].endswith("_hover")]
    assert len(hovers) == 2 and hovers[0].isdisjoint(hovers[1])
    graph = scene(both)  # renders: no duplicate signal names
    assert graph["height"] > 2 * 280


def test_layers_thin_large_curves_under_altairs_row_limit():
    rng = np.random.default_rng(3)
    y = rng.random(20_000) < 0.4
    points = cc.roc_points({"s": rng.normal(size=20_000) + y, "y": y}, score="s", label="y")
    for layer in (layers.cost_lines(points), layers.roc_curve(points), layers.roc_markers(points)):
        spec = layer.to_dict()  # raised MaxRowsError before
        rows = next(iter(spec["datasets"].values()))
        assert len(rows) <= 100 + len(cc.roc_hull(points))
    assert len(layers.roc_curve(points, max_points=None).data) == len(points)


def _area_ends(graph, size=280):
    (area,) = [m for m in data_marks(graph) if m.marktype == "area" and len(m.items) > 4]
    return np.array(sorted((i["x"], i["y"], i["y2"]) for i in area.items))


def _expected_ends(pc, low, high, y_max=0.5, size=280):
    low, high = np.clip(low, 0, y_max), np.clip(high, 0, y_max)
    return np.array(
        sorted(zip(size * pc, size * (1 - low / y_max), size * (1 - high / y_max), strict=True))
    )


def test_average_chart_draws_the_vertical_average_and_its_spread(folds):
    tree = folds[folds.classifier == "tree"].drop(columns="classifier")
    average = cc.vertical_average(tree, over="fold")
    drawn = _area_ends(scene(cc.average_chart(tree, over="fold", show_roc=False)))
    # The cost axis fits the average and the top of its spread: none of it is cut.
    top = fitted_top(average.cost, average.cost_hi)
    assert average.cost_hi.max() < top < 0.5
    expected = _expected_ends(average.pc, average.cost_lo, average.cost_hi, y_max=top)
    np.testing.assert_allclose(drawn, expected, atol=1e-3)  # the range over the folds
    sd = _area_ends(scene(cc.average_chart(tree, over="fold", show_roc=False, spread="sd")))
    high = average.cost + average.cost_sd
    spread = _expected_ends(
        average.pc, average.cost - average.cost_sd, high, y_max=fitted_top(average.cost, high)
    )
    np.testing.assert_allclose(sd, spread, atol=1e-3)
    labels = legend_labels(scene(cc.average_chart(folds, over="fold", classifier="classifier")))
    assert "vertical average of the cost curves" in labels
    assert "cost average's range over the curves (lowest to highest)" in labels
    assert "range of TPR over the curves" in labels
    with pytest.raises(cc.CostchartError, match=r"spread='iqr' is not an option"):
        cc.average_chart(folds, over="fold", spread="iqr")
    with pytest.raises(cc.CostchartError, match=r"over=True must be a column name"):
        cc.average_chart(folds, over=True)  # was a raw TypeError


def test_layer_mark_overrides_and_tooltips(sonar):
    chart = layers.envelope(
        cc.lower_envelope(sonar), classifier="classifier", mark={"strokeWidth": 4}
    )
    assert chart.to_dict()["mark"]["strokeWidth"] == 4
    plain = layers.envelope(cc.lower_envelope(sonar), tooltip=False).to_dict()
    assert "tooltip" not in plain["encoding"]
    chosen = layers.envelope(cc.lower_envelope(sonar), tooltip=["threshold"]).to_dict()
    assert [t["field"] for t in chosen["encoding"]["tooltip"]] == ["threshold"]
    with pytest.raises(cc.CostchartError, match=r"'widht'.* is not a Vega-Lite mark property"):
        layers.envelope(cc.lower_envelope(sonar), mark={"widht": 2})
    with pytest.raises(cc.CostchartError, match=r"mark=\{'strokeWidth': 'x'\} has a value"):
        layers.envelope(cc.lower_envelope(sonar), mark={"strokeWidth": "x"})
    with pytest.raises(cc.CostchartError, match=r"tooltip=3 must be None, False"):
        layers.envelope(cc.lower_envelope(sonar), tooltip=3)


def test_key_layer_checks_its_entries():
    with pytest.raises(cc.CostchartError, match=r"entries=.* must be a non-empty list"):
        layers.key([])
    with pytest.raises(cc.CostchartError, match=r"kind 'zigzag' is not one of"):
        layers.key([("x", "zigzag")])
    with pytest.raises(cc.CostchartError, match=r"given twice"):
        layers.key([("x", "line"), ("x", "rule")])
    with pytest.raises(
        cc.CostchartError, match=r"must be a \(label, kind\) or \(label, kind, colour\)"
    ):
        layers.key([("x", "line", "red", "wide")])
    with pytest.raises(
        cc.CostchartError,
        match=r"key entry 'x' has colour 3, which is not a colour; pass a CSS colour",
    ):
        layers.key([("x", "line", 3)])
    with pytest.raises(
        cc.CostchartError, match=r"key entry 'x' has colour 'reddish', which is not"
    ):
        layers.key([("x", "line", "reddish")])
    with pytest.raises(cc.CostchartError, match=r"orient='middle' is not an option"):
        layers.key([("x", "line")], orient="middle")


def test_key_entries_take_the_colour_of_the_element_they_name(sonar):
    hull = cc.roc_hull(sonar[sonar.classifier == "tree"])
    drawn = layers.hull(hull, mark={"stroke": "#D55E00"})
    entries = [("hull", "dashed line", "#D55E00"), ("region", "region", "#abcdef"), ("dot", "dot")]
    graph = scene(drawn + layers.key(entries))
    symbols = legend_symbols(graph)
    assert symbols["hull"]["stroke"] == "#D55E00" and symbols["hull"]["strokeDash"] == [6, 3]
    assert symbols["region"]["fill"] == "#abcdef"
    assert symbols["dot"]["fill"] == INK  # no colour given: the kind's own
    strokes = {item.get("stroke") for mark in data_marks(graph) for item in mark.items}
    assert "#D55E00" in strokes


def test_key_swatches_keep_their_dashes_beside_a_layer_dashed_from_data():
    # A layer dashing its curves from a field with legend=None used to drop the dash
    # channel from the merged legend: every swatch drawn solid.
    rows = pd.DataFrame({"x": [0, 1, 0, 1], "y": [0, 1, 0, 0.5], "curve": ["a", "a", "b", "b"]})
    dashes = alt.Scale(domain=["a", "b"], range=[[6, 4], [1, 0]])
    curves = (
        alt.Chart(rows)
        .mark_line()
        .encode(x="x:Q", y="y:Q", strokeDash=alt.StrokeDash("curve:N", scale=dashes, legend=None))
    )
    first = layers.key([("dashed", "dashed line"), ("solid", "line"), ("diagonal", "chance")])
    second = layers.key([("dotted", "dotted line"), ("rule", "rule")])
    for chart in (curves + first, (curves + first) | (curves + second)):
        # As costchart exports it: keys of joined views merged into one legend.
        graph = vlc.vegalite_to_scenegraph(chart_spec(chart), vl_version=vl_version())
        symbols = legend_symbols(graph)
        shown = {label: symbol.get("strokeDash") for label, symbol in symbols.items()}
        expected = {"dashed": [6, 3], "solid": [100, 0], "diagonal": [4, 4]}
        if "rule" in shown:
            expected |= {"dotted": [2, 3], "rule": [5, 4]}
        assert shown == expected


def test_layers_package_exports_only_layers():
    public = {n for n in dir(layers) if not n.startswith("_")}
    internals = {"np", "pd", "alt", "col"}
    assert public.isdisjoint(internals)
    assert set(layers.__all__) <= public
    assert all(callable(getattr(layers, n)) for n in layers.__all__)
    assert isinstance(alt.Chart(), alt.Chart)  # layers stay plain Altair charts


@pytest.fixture(scope="module")
def difference():
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset in ['sonar', 'diabetes']")
    return cc.difference_band(
        data,
        score="score",
        label="label",
        classifier="classifier",
        instance="instance",
        a="logistic",
        b="tree",
        by="dataset",
        pc=np.linspace(0, 1, 101),
    )


def _shaded(graph):
    """(x_lo, x_hi, fill) of every shaded significance rectangle drawn."""
    return [
        (item["x"], item["x"] + item["width"], item["fill"])
        for mark in data_marks(graph)
        if mark.marktype == "rect"
        for item in mark.items
    ]


def test_difference_chart_names_both_classifiers_and_the_band(difference):
    sonar = difference[difference.dataset == "sonar"].drop(columns="dataset")
    graph = scene(cc.difference_chart(sonar))
    assert "Cost of logistic minus cost of tree" in texts(graph)
    labels = legend_labels(graph)
    assert labels[:2] == ["logistic", "tree"]  # the shading's legend, "significantly cheaper"
    assert "significantly cheaper" in texts(graph)
    assert "difference, logistic - tree (below 0: logistic cheaper)" in labels
    assert "90 % bootstrap band (normal fit to the exact moments)" in labels
    # A report's palette of every classifier: the key still lists only the two compared.
    report = scene(cc.difference_chart(sonar, palette=cc.palette(["bayes", "logistic", "tree"])))
    assert legend_labels(report)[:2] == ["logistic", "tree"]
    assert "bayes" not in legend_labels(report)
    assert (
        legend_symbols(report)["90 % bootstrap band (normal fit to the exact moments)"]["fill"]
        == MUTED
    )  # the band's own grey


def test_difference_chart_shades_the_cheaper_classifier_where_the_band_excludes_zero(difference):
    sonar = difference[difference.dataset == "sonar"].drop(columns="dataset")
    colours = cc.palette(["logistic", "tree"])
    shaded = _shaded(scene(cc.difference_chart(sonar, size=400)))
    regions = cc.significant_regions(sonar)
    assert len(shaded) == len(regions) > 0
    for (x_lo, x_hi, fill), region in zip(sorted(shaded), regions.itertuples()):
        assert x_lo == pytest.approx(400 * region.pc_lo, abs=0.01)
        assert x_hi == pytest.approx(400 * region.pc_hi, abs=0.01)
        assert fill == colours[region.cheaper]
        inside = sonar[(sonar.pc >= region.pc_lo) & (sonar.pc <= region.pc_hi)]
        # The named classifier is the cheaper one: the band lies on its side of zero.
        if region.cheaper == "logistic":
            assert (inside.upper[inside.significant] < 0).all()
        else:
            assert (inside.lower[inside.significant] > 0).all()


def test_difference_chart_names_follow_the_band_not_the_order_given(difference):
    swapped = difference.copy()
    swapped[["difference", "lower", "upper"]] = -difference[
        ["difference", "upper", "lower"]
    ].to_numpy()
    swapped.attrs = {
        **difference.attrs,
        "costchart": {**difference.attrs["costchart"], "a": "tree", "b": "logistic"},
    }
    one = cc.significant_regions(difference)
    other = cc.significant_regions(swapped)
    assert one[["pc_lo", "pc_hi"]].equals(other[["pc_lo", "pc_hi"]])
    assert one.cheaper.tolist() == other.cheaper.tolist()  # the same classifier each time
    graph = scene(cc.difference_chart(swapped[swapped.dataset == "sonar"].drop(columns="dataset")))
    assert "Cost of tree minus cost of logistic" in texts(graph)


def test_band_chart_key_names_the_band(demo_points):
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset == 'sonar'")
    band = cc.bootstrap_band(
        data,
        score="score",
        label="label",
        by="classifier",
        inference="exact_bootstrap",
        interval="discrete",
        pc=[0.2, 0.5],
    )
    labels = legend_labels(scene(cc.band_chart(band, classifier="classifier")))
    assert "90 % exact bootstrap band" in labels
    resampled = cc.bootstrap_band(
        data,
        score="score",
        label="label",
        by="classifier",
        inference="bootstrap",
        n_resamples=200,
        rng=1,
        pc=[0.2, 0.5],
        confidence_level=0.8,
    )
    assert cc.band_label(resampled) == "80 % bootstrap band (200 resamples)"
    assert "80 % bootstrap band (200 resamples)" in legend_labels(
        scene(cc.band_chart(resampled, classifier="classifier"))
    )
    # Through another library the description is lost: a generic entry, or the user's.
    import polars as pl

    plain = pl.from_pandas(band)
    with pytest.warns(cc.CostchartWarning, match=r"pass band_label= to name it"):
        chart = cc.band_chart(plain, classifier="classifier")
    assert "confidence band" in legend_labels(scene(chart))
    named = cc.band_chart(plain, classifier="classifier", band_label="90 % band, 1,000 loans")
    assert "90 % band, 1,000 loans" in legend_labels(scene(named))


def test_band_description_survives_pandas_filtering(difference):
    part = difference[difference.dataset == "sonar"][["pc", "difference", "lower", "upper"]]
    assert part.attrs["costchart"]["a"] == "logistic"
    assert cc.band_label(part) == cc.band_label(difference)


def test_band_layer_draws_its_lower_and_upper_ends(demo_points):
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset == 'sonar' and classifier == 'tree'")
    band = cc.bootstrap_band(data, score="score", label="label", pc=np.linspace(0, 1, 21))
    y_max = 0.3
    graph = scene(layers.band(band, y_max=y_max).properties(width=200, height=200))
    (area,) = [m for m in data_marks(graph) if m.marktype == "area"]
    drawn = sorted((i["x"], i["y"], i["y2"]) for i in area.items)
    expected = sorted(
        (200 * pc, 200 * (1 - min(lo, y_max) / y_max), 200 * (1 - min(hi, y_max) / y_max))
        for pc, lo, hi in zip(band.pc, band.lower, band.upper)
    )
    np.testing.assert_allclose(np.array(drawn), np.array(expected), atol=1e-6)


def test_band_chart_zoom_cuts_every_mark(demo_points):
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset == 'sonar'")
    band = cc.bootstrap_band(data, score="score", label="label", by="classifier")
    graph = scene(cc.band_chart(band, classifier="classifier", y_max=0.05))
    assert _inside(graph, 280) == []
    assert graph["height"] < 280 + 200


@pytest.mark.slow
def test_charts_of_many_long_curves_pass_altairs_row_limit():
    from costchart._export._budget import estimate_marks

    rng = np.random.default_rng(4)
    n = 120 * 2_000
    label = rng.random(n) < 0.3
    data = {
        "dataset": np.repeat(np.arange(4), n // 4).astype(str),
        "model": np.tile(np.repeat(np.arange(3), 2_000), 40).astype(str),
        "fold": np.repeat(np.arange(120), 2_000) % 10,
        "s": rng.normal(size=n) + label,
        "y": label,
    }
    points = cc.roc_points(data, score="s", label="y", by=["dataset", "model", "fold"])
    for chart in (
        cc.roc_cost_chart(points, classifier="model", facet="dataset"),
        cc.roc_cost_chart(
            points[points.dataset == "0"].drop(columns="dataset"), classifier="model"
        ),
        cc.cost_chart(points, classifier="model"),
    ):
        spec = chart.to_dict()  # a frame over 5,000 rows raised MaxRowsError
        (rows,) = spec["datasets"].values()  # one data set, stored once
        assert len(rows) > 4_000
        # Each panel draws only its own rows: the estimate counts them once, not per panel.
        assert estimate_marks(spec) < 80_000


def test_band_chart_marks_where_the_band_has_no_width():
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset == 'sonar' and classifier == 'tree'")
    band = cc.bootstrap_band(data, score="score", label="label", pc=np.linspace(0, 1, 51))
    graph = scene(cc.band_chart(band, size=200))
    assert "zero-width band: no bootstrap variability" in legend_labels(graph)
    rules = [
        item
        for mark in data_marks(graph)
        if mark.marktype == "rule"
        for item in mark.items
        if item.get("strokeWidth") == 1.2
    ]
    # A lone pc of zero width gets a tick; a run of them a thin line with a tick at each end.
    zero = band.degenerate.to_numpy(bool)
    edges = np.diff(np.r_[0, zero.astype(int), 0])
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1
    pc = band.pc.to_numpy()
    ticks = sorted(item["x"] for item in rules if item["x2"] == item["x"])
    lines = sorted((item["x"], item["x2"]) for item in rules if item["x2"] != item["x"])
    expected_ticks = sorted([*(200 * pc[starts]), *(200 * pc[ends[ends > starts]])])
    np.testing.assert_allclose(ticks, expected_ticks, atol=1e-6)
    np.testing.assert_allclose(
        lines, [(200 * pc[a], 200 * pc[b]) for a, b in zip(starts, ends, strict=True) if b > a]
    )
    assert all(item["y"] == item["y2"] for item in rules if item["x2"] != item["x"])  # flat


def _zero_width_rules(chart, size=200):
    """The rules drawn where a band has no width: ticks (x == x2) and lines, in pixels."""
    rules = [
        item
        for mark in data_marks(scene(chart))
        if mark.marktype == "rule"
        for item in mark.items
        if item.get("strokeWidth") == 1.2
    ]
    ticks = sorted((i["x"], i["y"], i["y2"]) for i in rules if i["x2"] == i["x"])
    lines = sorted((i["x"], i["x2"], i["y"], i["y2"]) for i in rules if i["x2"] != i["x"])
    return ticks, lines


def test_a_band_of_no_width_anywhere_is_one_thin_line():
    # A perfect classifier: the band is its curve, 0 at every pc. It used to get a
    # 2-pixel tick at each of the 101 pc, side by side: a solid bar along the axis.
    data = {"s": [0.9, 0.8, 0.7, 0.3, 0.2, 0.1], "y": [1, 1, 1, 0, 0, 0]}
    band = cc.bootstrap_band(data, score="s", label="y", inference="exact_bootstrap")
    assert band.degenerate.all() and (band.upper == band.lower).all()
    ticks, lines = _zero_width_rules(cc.band_chart(band, size=200))
    assert len(lines) == 1  # one thin line from the first pc to the last
    x, x2, y, y2 = lines[0]
    assert (x, x2) == (0, 200) and y == y2 and 190 < y < 200  # just above the axis
    assert [t[0] for t in ticks] == [0, 200]  # a tick at each end, reaching the line
    assert all(t[1:] == (200, y) or t[1:] == (y, 200) for t in ticks)


def test_lone_zero_width_pcs_get_ticks_and_runs_lines():
    band = pd.DataFrame(
        {
            "m": ["a"] * 6 + ["b"] * 3,
            "pc": [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.0, 0.5, 1.0],
            "lower": 0.1,
            "upper": 0.2,
            "degenerate": [True, True, False, True, False, True, False, True, False],
        }
    )
    chart = layers.degenerate_ticks(band, classifier="m", y_max=0.5).properties(
        width=200, height=200
    )
    ticks, lines = _zero_width_rules(chart)
    # a: a run 0-0.1 (line and two ticks), lone 0.3 and 0.5; b: lone 0.5 (its own curve).
    assert [t[0] for t in ticks] == pytest.approx([0, 20, 60, 100, 100])
    assert [line[:2] for line in lines] == [(0, 20)]


def test_facet_headers_name_their_column(demo_points):
    written = texts(scene(cc.cost_chart(demo_points, classifier="classifier", facet="dataset")))
    assert {"dataset: credit", "dataset: diabetes", "dataset: ionosphere", "dataset: sonar"} <= set(
        written
    )
    assert "sonar" not in written  # the bare value alone said nothing of what it is


@pytest.mark.slow  # a confidence set and a render: seconds
def test_cheapest_set_chart_key_names_every_element_as_drawn():
    from costchart.datasets import load_predictions

    data = load_predictions()
    sonar = data[data.dataset == "sonar"]
    options = {"score": "score", "label": "label", "classifier": "classifier"}
    options |= {"instance": "instance", "n_resamples": 300, "rng": 0}
    options |= {"pc": np.linspace(0, 1, 101)}
    graph = scene(cc.cheapest_set_chart(sonar, **options))
    labels = legend_labels(graph)
    assert labels[:3] == ["logistic", "naive bayes", "tree"]
    strip = [
        "could be the cheapest (90% confidence set; pale, its colour)",
        "estimated cheapest there (solid, its colour)",
    ]
    assert set(ROC_KEY + strip) <= set(labels)
    assert {"cheapest of all classifiers (its colour)", "lower envelope"} <= set(labels)
    symbols = legend_symbols(graph)
    assert symbols[strip[1]]["fill"] != symbols[strip[0]]["fill"]
    # The strip's bars: one row per classifier beneath the cost view, in their colours.
    bars = [i for m in data_marks(graph) if m.marktype == "rect" for i in m.items]
    colours = cc.palette(["logistic", "naive bayes", "tree"])
    assert {b["fill"] for b in bars} == set(colours.values())
    assert len({round(b["y"], 3) for b in bars}) == 3
    bare = scene(cc.cheapest_set_chart(sonar, **options, show_key=False, show_roc=False))
    assert legend_labels(bare) == ["logistic", "naive bayes", "tree"]
