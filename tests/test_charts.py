import json
import os
import re
from pathlib import Path

import altair as alt
import numpy as np
import pandas as pd
import pytest
from scenegraph import data_marks, legend_labels, scene, spec_views

import costchart as cc
from costchart._charts import drawn_tables

SNAPSHOTS = Path(__file__).parent / "snapshots"


def _small(demo_points):
    return demo_points[demo_points["dataset"].isin(["sonar", "ionosphere"])].reset_index(drop=True)


COMPOSITIONS = {
    "cost": lambda p: cc.cost_chart(
        p[p.dataset == "sonar"].drop(columns="dataset"),
        classifier="classifier",
        markers={"3:1": 0.75},
    ),
    "cost_facet": lambda p: cc.cost_chart(p, classifier="classifier", facet="dataset", y_max=1),
    "cost_plain": lambda p: cc.cost_chart(
        p[(p.dataset == "sonar") & (p.classifier == "tree")].drop(columns=["dataset", "classifier"])
    ),
    "roc": lambda p: cc.roc_chart(p, classifier="classifier", facet="dataset", iso=[0.5]),
    "roc_cost": lambda p: cc.roc_cost_chart(
        p[p.dataset == "sonar"].drop(columns="dataset"), classifier="classifier"
    ),
    "roc_cost_facet": lambda p: cc.roc_cost_chart(
        p, classifier="classifier", facet="dataset", iso=[0.3], markers=[0.7]
    ),
}


def test_band_and_difference_charts_render(render):
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset in ['sonar', 'ionosphere']")
    band = cc.bootstrap_band(
        data, score="score", label="label", by=["dataset", "classifier"], pc=np.linspace(0, 1, 51)
    )
    spec, _ = render(cc.band_chart(band, classifier="classifier", facet="dataset"))
    assert "facet" in spec
    render(
        cc.band_chart(
            band[band.dataset == "sonar"].drop(columns="dataset"), classifier="classifier"
        )
    )
    difference = cc.difference_band(
        data,
        score="score",
        label="label",
        classifier="classifier",
        instance="instance",
        a="logistic",
        b="tree",
        by="dataset",
        pc=np.linspace(0, 1, 51),
    )
    render(cc.difference_chart(difference, facet="dataset"))
    render(cc.difference_chart(difference[difference.dataset == "sonar"].drop(columns="dataset")))


@pytest.mark.parametrize("name", COMPOSITIONS)
def test_composition_validates_and_renders(name, demo_points, render):
    render(COMPOSITIONS[name](_small(demo_points)))


def _names(spec):
    """Every view name in a spec, with its parent's first-layer name."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            if "layer" in node:
                found.append(node["layer"][0].get("name"))
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(spec)
    return found


@pytest.mark.parametrize("name", ["roc_cost", "roc_cost_facet", "cost_facet", "roc"])
def test_selections_live_on_the_first_layer_of_each_view(name, demo_points):
    # Guards the altair 6.1-6.3 bug: a selection not on the first layer of a faceted layer
    # inside a concat breaks. Our params name views that are first layers.
    spec = COMPOSITIONS[name](_small(demo_points)).to_dict()
    params = spec.get("params") or []
    assert any(p["name"].endswith("_hover") for p in params)
    first_layers = set(_names(spec))
    for param in params:
        assert param.get("views"), param
        assert set(param["views"]) <= first_layers, (param["views"], first_layers)


def test_linked_views_share_one_selection(demo_points):
    spec = COMPOSITIONS["roc_cost_facet"](_small(demo_points)).to_dict()
    hover = next(p for p in spec["params"] if p["name"].endswith("_hover"))
    # One ROC and one cost view per data set (two here), each pair named afresh.
    roc = [v for v in hover["views"] if v.startswith("costchart_roc_targets")]
    cost = [v for v in hover["views"] if v.startswith("costchart_cost_targets")]
    assert len(roc) == len(cost) == 2 and len(set(hover["views"])) == 4
    assert hover["select"]["fields"] == ["dataset", "classifier", "line"]
    legend = next(p for p in spec["params"] if p["name"].endswith("_legend"))
    assert legend["bind"] == "legend" and legend["views"] == roc
    # Every view reads the same points data set (embedded once, filtered per panel).
    with_points = [k for k, rows in spec["datasets"].items() if "line" in rows[0]]
    assert len(with_points) == 1


def test_builders_do_not_touch_global_state(demo_points):
    theme, transformer = alt.theme.active, alt.data_transformers.active
    spec = cc.cost_chart(_small(demo_points), classifier="classifier").to_dict()
    assert "config" not in spec or "font" not in spec.get("config", {})
    assert (alt.theme.active, alt.data_transformers.active) == (theme, transformer)


def test_theme_is_registered_and_off():
    assert "costchart" in alt.theme.names()
    assert alt.theme.active != "costchart"
    with alt.theme.enable("costchart"):
        spec = alt.Chart().mark_point().to_dict()
    assert spec["config"]["font"] == "Liberation Sans"


@pytest.mark.slow
def test_large_input_embeds_few_rows(render):
    rng = np.random.default_rng(5)
    n = 1_000_000
    labels = rng.random(n) < 0.3
    points = cc.roc_points({"s": rng.normal(size=n) + labels, "y": labels}, score="s", label="y")
    assert len(points) == n + 1
    chart = cc.roc_cost_chart(points, max_points=100)
    spec, _ = render(chart)
    rows = sum(len(values) for values in spec["datasets"].values())
    hull = len(cc.roc_hull(points))
    # Besides points, hull and envelope: the trivial lines, region, diagonal and key.
    assert rows <= 100 + hull + len(cc.lower_envelope(points)) + 30
    assert len(json.dumps(spec)) < 200_000


def test_chart_tables_keep_hull_and_envelope_exact(demo_points):
    sonar = demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")
    tables = drawn_tables(sonar, color="classifier", max_points=20)
    exact = cc.lower_envelope(sonar)
    for name, part in exact.groupby("classifier"):
        drawn = tables.envelope[tables.envelope.classifier == name]
        np.testing.assert_allclose(drawn["pc"], part["pc"], rtol=0, atol=5e-6)  # 5 decimals kept
        np.testing.assert_allclose(drawn["cost"], part["cost"], rtol=0, atol=5e-6)
    # line numbers count points within each classifier, in curve order
    for _, part in tables.points.groupby("classifier"):
        assert part["line"].tolist() == list(range(len(part)))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda p: cc.cost_chart(p, classifier="model"),
            r"classifier='model' is not a grouping column of points; grouping columns: \['dataset', 'classifier'\]",
        ),
        (lambda p: cc.roc_chart(p, facet="fold"), r"facet='fold' is not a grouping column"),
        (
            lambda p: cc.roc_cost_chart(p, size=10),
            r"size=10 must be a whole number of pixels, at least 50",
        ),
        (
            lambda p: cc.cost_chart(p, max_points=1),
            r"max_points=1 must be a whole number of at least 2",
        ),
        (lambda p: cc.cost_chart(p, y_max=2), r"y_max=2\.0 is outside \(0, 1\]"),
        (lambda p: cc.cost_chart(p, y_max="0.5"), r"y_max='0\.5' must be a number"),
        (lambda p: cc.cost_chart(p, y_max=[0.5]), r"y_max=\[0\.5\] must be a number"),
        (lambda p: cc.roc_cost_chart(p, y_max=float("nan")), r"y_max=nan must be a finite"),
        (
            lambda p: cc.cost_chart(p, markers="abc"),
            r"markers='abc' must be a number or numbers, not str; pass a pc in \[0, 1\], a list of",
        ),
        (lambda p: cc.roc_cost_chart(p, markers=5), r"markers=5\.0 is outside \[0, 1\]"),
        (
            lambda p: cc.cost_chart(p, markers={"a": "x"}),
            r"markers must be a number or numbers, not str 'x'",
        ),
        (lambda p: cc.cost_chart(p, markers=[1.5]), r"markers=1\.5 is outside \[0, 1\]"),
        (lambda p: cc.cost_chart(p, ranges="no"), r"ranges='no' must be True or False"),
        (
            lambda p: cc.roc_chart(p, iso="x"),
            r"iso='x' must be a number or numbers, not str; pass a number between 0 and 1",
        ),
        (lambda p: cc.roc_cost_chart(p, iso=[2]), r"iso=2\.0 is outside \[0, 1\]"),
        (lambda p: cc.cost_chart(p, size="a"), r"size='a' must be a whole number of pixels"),
        (lambda p: cc.roc_chart(p, size=True), r"size=True must be a whole number of pixels"),
        (lambda p: cc.cost_chart(p, size=10**9), r"size=1000000000 .* at most 10,000"),
        (lambda p: cc.cost_chart(p, max_points=float("nan")), r"max_points=nan must be a whole"),
        (
            lambda p: cc.cost_chart(p, classifier=["classifier"]),
            r"classifier= takes a column name, but got a list",
        ),
        (lambda p: cc.cost_chart(p.iloc[:0]), r"points has no rows; there is no curve to draw"),
        *[
            (
                lambda p, build=build, value=value: build(p, facet="dataset", columns=value),
                message,
            )
            for build in (cc.cost_chart, cc.roc_chart)
            for value, message in (
                (0, r"columns=0 is out of range; pass a whole number at least 1"),
                (-2, r"columns=-2 is out of range"),
                (1.5, r"columns=1\.5 must be a whole number"),
                ("3", r"columns='3' must be a whole number"),
            )
        ],
    ],
)
def test_composition_errors(call, message, demo_points):
    with pytest.raises(cc.CostchartError, match=message):
        call(_small(demo_points))


@pytest.fixture(scope="module")
def band_tables():
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset in ['sonar', 'ionosphere']")
    band = cc.bootstrap_band(
        data, score="score", label="label", by=["dataset", "classifier"], pc=[0.2, 0.5, 0.8]
    )
    difference = cc.difference_band(
        data,
        score="score",
        label="label",
        classifier="classifier",
        instance="instance",
        a="logistic",
        b="tree",
        by="dataset",
        pc=[0.2, 0.5, 0.8],
    )
    return band, difference


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda b, d: cc.band_chart(b, facet="fold"),
            r"facet='fold' is not a grouping column of band; grouping columns: \['dataset', "
            r"'classifier'\]\. Pass by=\[\.\.\., 'fold'\] to bootstrap_band",
        ),
        (
            lambda b, d: cc.band_chart(b, classifier="model"),
            r"classifier='model' is not a grouping column",
        ),
        (
            lambda b, d: cc.difference_chart(d, facet="fold"),
            r"facet='fold' is not a grouping column of difference; grouping columns: "
            r"\['dataset'\]\. Pass by=\[\.\.\., 'fold'\] to difference_band",
        ),
        (lambda b, d: cc.band_chart(b, facet="dataset", columns=0), r"columns=0 is out of range"),
        (lambda b, d: cc.difference_chart(d, columns=-1), r"columns=-1 is out of range"),
        (lambda b, d: cc.band_chart(b, y_max=1.5), r"y_max=1\.5 is outside \(0, 1\]"),
        (lambda b, d: cc.difference_chart(d, size=20), r"size=20 must be a whole number"),
        (lambda b, d: cc.band_chart(b.iloc[:0]), r"band has no rows"),
        (lambda b, d: cc.difference_chart(d.iloc[:0]), r"difference has no rows"),
        (
            lambda b, d: cc.band_chart(d),
            r"the table given to band_chart has no column 'cost'; available columns",
        ),
        (
            lambda b, d: cc.difference_chart(b),
            r"the table given to difference_chart has no column 'difference'",
        ),
        (lambda b, d: cc.band_chart({"pc": 1}), r"band_chart holds only scalars"),
        (lambda b, d: cc.band_chart([1, 2]), r"must be a pandas, polars or pyarrow DataFrame"),
    ],
)
def test_band_and_difference_chart_errors(call, message, band_tables):
    with pytest.raises(cc.CostchartError, match=message):
        call(*band_tables)


def test_band_and_difference_charts_take_polars(band_tables, render):
    import polars as pl

    band, difference = band_tables
    # Through polars the bands lose their descriptions: the charts say so, and are drawn.
    with pytest.warns(cc.CostchartWarning, match="band_label="):
        render(cc.band_chart(pl.from_pandas(band), classifier="classifier", facet="dataset"))
    with pytest.warns(cc.CostchartWarning) as record:
        render(cc.difference_chart(pl.from_pandas(difference), facet="dataset"))
    said = " ".join(str(w.message) for w in record)
    assert "pass band_label=" in said and "pass a= and b=" in said


def _normalized(spec: dict) -> str:
    """The spec as text: generated data-set names replaced by their order, and each data
    set summarized by its row count and fields (the values are tested elsewhere)."""
    datasets = spec.pop("datasets", {})
    spec["datasets"] = {
        name: {"rows": len(rows), "fields": sorted({key for row in rows for key in row})}
        for name, rows in datasets.items()
    }
    text = json.dumps(spec, indent=1, sort_keys=True)
    for number, name in enumerate(sorted(datasets, key=text.index)):
        text = text.replace(name, f"dataset-{number}")
    return re.sub(r'"\$schema": "[^"]*"', '"$schema": "vega-lite"', text)


@pytest.mark.parametrize("name", COMPOSITIONS)
def test_spec_snapshot(name, demo_points):
    """Unintended spec changes show up here. After an intended change, refresh with
    COSTCHART_UPDATE_SNAPSHOTS=1 pytest tests/test_charts.py and review the diff."""
    text = _normalized(COMPOSITIONS[name](_small(demo_points)).to_dict())
    path = SNAPSHOTS / f"{name}.json"
    if os.environ.get("COSTCHART_UPDATE_SNAPSHOTS") == "1":
        path.write_text(text + "\n")
    assert path.exists(), f"no snapshot {path.name}; create it with COSTCHART_UPDATE_SNAPSHOTS=1"
    assert text + "\n" == path.read_text()


def _band_tables():
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset in ['sonar', 'ionosphere']")
    grid = np.linspace(0, 1, 11)
    band = cc.bootstrap_band(
        data, score="score", label="label", by=["dataset", "classifier"], pc=grid, rng=0
    )
    difference = cc.difference_band(
        data,
        score="score",
        label="label",
        classifier="classifier",
        instance="instance",
        a="logistic",
        b="tree",
        by="dataset",
        pc=grid,
    )
    return band, difference


BAND_COMPOSITIONS = {
    "band": lambda b, d: cc.band_chart(b, classifier="classifier", facet="dataset", y_max=0.4),
    "difference": lambda b, d: cc.difference_chart(d, facet="dataset", title="Paired"),
}


@pytest.mark.parametrize("name", BAND_COMPOSITIONS)
def test_band_spec_snapshot(name):
    """As test_spec_snapshot, for the band and difference charts."""
    text = _normalized(BAND_COMPOSITIONS[name](*_band_tables()).to_dict())
    path = SNAPSHOTS / f"{name}.json"
    if os.environ.get("COSTCHART_UPDATE_SNAPSHOTS") == "1":
        path.write_text(text + "\n")
    assert path.exists(), f"no snapshot {path.name}; create it with COSTCHART_UPDATE_SNAPSHOTS=1"
    assert text + "\n" == path.read_text()


SPECIAL_NAMES = ["a.b", "a[0]", "a:b", "a'b", 'a"b', "a b"]


def _special_data(name, role):
    """Two data sets x three classifiers; the classifier (color) or data set (facet)
    column gets the special name."""
    rng = np.random.default_rng(11)
    frames = []
    for dataset in ("D1", "D2"):
        for model in ("M1", "M2", "M3"):
            label = rng.random(30) < 0.4
            score = rng.normal(size=30) + label
            frames.append(
                pd.DataFrame({"ds": dataset, "m": model, "s": score, "y": label, "i": range(30)})
            )
    data = pd.concat(frames, ignore_index=True)
    data = data.rename(columns={"m": name} if role == "color" else {"ds": name})
    color, facet = (name, "ds") if role == "color" else ("m", name)
    return data, color, facet


def _special_chart(kind, data, color, facet):
    if kind == "band":
        band = cc.bootstrap_band(
            data, score="s", label="y", by=[facet, color], pc=np.linspace(0, 1, 11)
        )
        return cc.band_chart(band, classifier=color, facet=facet)
    points = cc.roc_points(data, score="s", label="y", by=[facet, color])
    build = {"cost": cc.cost_chart, "roc": cc.roc_chart, "roc_cost": cc.roc_cost_chart}[kind]
    return build(points, classifier=color, facet=facet)


@pytest.mark.slow
@pytest.mark.parametrize("role", ["color", "facet"])
@pytest.mark.parametrize("name", SPECIAL_NAMES)
@pytest.mark.parametrize("kind", ["cost", "roc", "roc_cost", "band"])
def test_column_names_with_special_characters_keep_legend_and_panels(kind, name, role, render):
    # Vega-Lite reads "a.b" as a nested field, "a[0]" as an array element and a quote as
    # the start of a quoted path; unescaped, the legend vanished or the render failed.
    data, color, facet = _special_data(name, role)
    _, svg = render(_special_chart(kind, data, color, facet))
    for model in ("M1", "M2", "M3"):
        assert svg.count(f">{model}<") == 1, (model, "legend entry")
    for dataset in ("D1", "D2"):  # one header per panel (per pair of views for roc_cost)
        # The header reads "<column>: D1" (the column as the SVG escapes it) or "D1".
        assert len(re.findall(rf">(?:[^<>]*: )?{dataset}<", svg)) == 1, (dataset, "panels")
    if role == "color":  # the legend's title is the column's own name, unescaped
        title = name.replace("&", "&amp;").replace("'", "&#39;").replace('"', "&quot;")
        assert re.search(f">{re.escape(title)}<|>{re.escape(name)}<", svg), "legend title"


@pytest.mark.parametrize("name", ["", "a\\b"])
@pytest.mark.parametrize("role", ["color", "facet"])
def test_column_names_vega_lite_cannot_draw_are_refused(name, role):
    data, color, facet = _special_data(name, role)
    with pytest.raises(cc.CostchartError, match=r"a column named .* cannot be drawn.*rename"):
        _special_chart("cost", data, color, facet)


@pytest.mark.parametrize("convert", ["polars", "pyarrow"])
def test_compositions_take_polars_and_pyarrow_points(convert, demo_points, render):
    import polars as pl
    import pyarrow as pa

    points = _small(demo_points)
    native = pl.from_pandas(points) if convert == "polars" else pa.Table.from_pandas(points)
    spec, _ = render(cc.roc_cost_chart(native, classifier="classifier", facet="dataset"))
    expected = cc.roc_cost_chart(points, classifier="classifier", facet="dataset").to_dict()
    assert spec["datasets"] == expected["datasets"]


def _many_curves(curves: int, per_curve: int = 400) -> pd.DataFrame:
    rng = np.random.default_rng(11)
    label = rng.random(curves * per_curve) < 0.3
    data = {
        "model": np.repeat(np.arange(curves) % 3, per_curve).astype(str),
        "fold": np.repeat(np.arange(curves) // 3, per_curve),
        "s": rng.normal(size=curves * per_curve) + label,
        "y": label,
    }
    return cc.roc_points(data, score="s", label="y", by=["model", "fold"])


@pytest.mark.slow
def test_many_curves_draw_fewer_points_and_a_mark_budget(render):
    from costchart._charts import MAX_ALL_COST_LINES, MAX_CHART_POINTS, MIN_POINTS_PER_CURVE

    points = _many_curves(120)
    tables = drawn_tables(points, color="model")
    assert tables.crowded
    per_curve = max(MIN_POINTS_PER_CURVE, MAX_CHART_POINTS // 120)
    hull = cc.roc_hull(points)
    drawn = tables.points.groupby(["model", "fold"]).size()
    hull_size = hull.groupby(["model", "fold"]).size()
    assert (drawn <= per_curve + hull_size.reindex(drawn.index)).all()
    assert tables.points.on_hull.sum() == len(hull)  # every hull vertex is drawn
    assert len(tables.points) > MAX_ALL_COST_LINES
    chart = cc.roc_cost_chart(points, classifier="model", name="many")
    spec, _ = render(chart)
    views = spec_views(spec)
    on_hull_only = [
        view.get("name", view["mark"]["type"] if isinstance(view["mark"], dict) else view["mark"])
        for view in views
        if {"filter": "datum.on_hull"} in view.get("transform", [])
    ]
    # Cost lines, ROC dots and their hover targets, and the ROC hull (always drawn through
    # hull vertices); not the ROC curve itself, and not the cost view's hover targets,
    # which lie along the envelopes.
    assert len(on_hull_only) == 4
    assert sum(str(n).startswith("costchart_roc_targets") for n in on_hull_only) == 1
    assert on_hull_only.count("line") == 2  # the cost lines and the dashed hull
    chosen = {"or": [{"param": f"many_{s}", "empty": False} for s in ("curve", "picked", "legend")]}
    budgeted = [v for v in views if {"filter": chosen} in v.get("transform", [])]
    assert len(budgeted) == 1  # the cost lines, tested before their ends are computed
    assert budgeted[0]["transform"][1:3] == [{"filter": chosen}, {"filter": "datum.on_hull"}]
    (targets,) = [v for v in views if str(v.get("name", "")).startswith("costchart_cost_targets")]
    assert targets["mark"]["type"] == "line"
    assert targets["encoding"]["x"]["field"] == "pc"  # along the envelopes
    params = {p["name"]: p for p in spec["params"]}
    assert params["many_curve"]["select"]["on"] == "pointerover"
    assert params["many_picked"]["select"]["on"] == "click"
    for name in ("many_curve", "many_picked"):
        assert params[name]["select"]["fields"] == ["model", "fold"]
        assert len(params[name]["views"]) == 2  # set in the ROC view and the cost view


def _drawn_cost_lines(graph) -> int:
    return sum(
        1
        for m in data_marks(graph)
        if m.marktype == "line" and m.items and m.items[0].get("strokeWidth") == 0.8
    )


def _drawn_envelopes(graph) -> int:
    return sum(
        1
        for m in data_marks(graph)
        if m.marktype == "line" and m.items and m.items[0].get("strokeWidth") == 2.5
    )


@pytest.mark.slow
def test_a_crowded_image_draws_every_envelope_and_no_cost_line():
    from costchart._charts import MAX_CURVES_WITH_ALL_LINES
    from costchart._export.image import chart_spec, vl_version, without_hover_targets

    def graph(chart):
        import vl_convert as vlc

        spec = without_hover_targets(chart_spec(chart))
        return vlc.vegalite_to_scenegraph(spec, vl_version=vl_version())

    few = _many_curves(MAX_CURVES_WITH_ALL_LINES, per_curve=60)
    many = _many_curves(MAX_CURVES_WITH_ALL_LINES + 1, per_curve=60)
    assert not drawn_tables(few, color="model").crowded
    assert drawn_tables(many, color="model").crowded
    for build in (cc.cost_chart, cc.roc_cost_chart):
        at_most = graph(build(few, classifier="model"))
        assert _drawn_cost_lines(at_most) > 0
        assert _drawn_envelopes(at_most) == MAX_CURVES_WITH_ALL_LINES
        crowded = graph(build(many, classifier="model"))
        assert _drawn_cost_lines(crowded) == 0
        assert _drawn_envelopes(crowded) == MAX_CURVES_WITH_ALL_LINES + 1
        labels = legend_labels(crowded)
        assert "cost lines: hover or click a curve, or pick in the legend" in labels, labels


def test_crowding_counts_curves_per_panel():
    from costchart._charts import MAX_CURVES_WITH_ALL_LINES

    points = _many_curves(2 * MAX_CURVES_WITH_ALL_LINES, per_curve=30)
    curve = points.fold * 3 + points.model.astype(int)
    points["half"] = np.where(curve < MAX_CURVES_WITH_ALL_LINES, "first", "second")
    by = ["half", "model", "fold"]
    assert drawn_tables(points, by=by).crowded  # 16 curves in one panel
    per_panel = drawn_tables(points, by=by, facet="half")
    assert not per_panel.crowded  # 8 in each
    points.loc[curve == MAX_CURVES_WITH_ALL_LINES, "half"] = "first"  # 9 and 7
    assert drawn_tables(points, by=by, facet="half").crowded


def test_few_curves_draw_every_cost_line(demo_points):
    spec = COMPOSITIONS["roc_cost"](demo_points).to_dict()
    filtered = [
        v for v in spec_views(spec) if {"filter": "datum.on_hull"} in v.get("transform", [])
    ]
    assert [v["mark"].get("strokeDash") for v in filtered] == [[6, 3]]  # the hull only


def test_static_images_skip_hover_targets(demo_points, capfd):
    import vl_convert as vlc

    from costchart._export.image import vl_version, without_hover_targets

    spec = COMPOSITIONS["roc_cost"](demo_points).to_dict()
    static = without_hover_targets(spec)
    emptied = [
        v["name"]
        for v in spec_views(static)
        if {"filter": "false"} in v.get("transform", []) and "name" in v
    ]
    assert sorted(re.sub(r"[0-9a-f]{12}$", "", n) for n in emptied) == [
        "costchart_cost_targets",
        "costchart_roc_targets",
    ]
    assert static != spec and {"filter": "false"} not in [
        t for v in spec_views(spec) if "name" in v for t in v.get("transform", [])
    ]
    capfd.readouterr()
    full = vlc.vegalite_to_svg(spec, vl_version=vl_version())
    svg = vlc.vegalite_to_svg(static, vl_version=vl_version(), show_warnings=True)
    assert "WARN" not in capfd.readouterr().err
    assert svg.count("<path") < full.count("<path")
    assert "logistic" in svg  # the legend stays


@pytest.mark.parametrize("name", COMPOSITIONS)
def test_identical_calls_give_identical_json(name, demo_points):
    first = COMPOSITIONS[name](_small(demo_points)).to_json()
    assert COMPOSITIONS[name](_small(demo_points)).to_json() == first


def test_charts_of_different_data_get_different_selection_names(demo_points):
    small = _small(demo_points)
    other = small.assign(tpr=small["tpr"] ** 2)
    names = []
    for points in (small, other):
        spec = cc.roc_cost_chart(points, classifier="classifier").to_dict()
        names.append({p["name"] for p in spec.get("params", [])})
    assert names[0] and names[1] and not names[0] & names[1]
    fixed = cc.roc_cost_chart(small, classifier="classifier", name="mine").to_dict()
    assert {p["name"] for p in fixed["params"]} == {"mine_hover", "mine_legend"}


@pytest.mark.parametrize("bad", [["a"], 3, "", "has space"])
def test_chart_names_are_identifiers(bad, demo_points):
    points = _small(demo_points)
    for chart in (cc.cost_chart, cc.roc_chart, cc.roc_cost_chart):
        with pytest.raises(cc.CostchartError, match=r"must be a Python identifier"):
            chart(points, classifier="classifier", facet="dataset", name=bad)


def test_panels_fill_a_grid_when_columns_is_not_given(demo_points):
    from costchart._charts._compose import panels_per_row

    assert [panels_per_row(n) for n in (1, 2, 3, 4, 5, 6, 9)] == [1, 2, 3, 2, 3, 3, 3]
    four = cc.cost_chart(demo_points, classifier="classifier", facet="dataset").to_dict()
    assert demo_points["dataset"].nunique() == 4 and four["columns"] == 2
    given = cc.cost_chart(
        demo_points, classifier="classifier", facet="dataset", columns=4
    ).to_dict()
    assert given["columns"] == 4


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:Automatically deduplicated selection parameter")
def test_compositions_stay_altair_charts_that_compose_and_save(demo_points, tmp_path):
    from costchart._export.image import chart_spec

    few = demo_points[demo_points.dataset.isin(["sonar", "diabetes"])]
    chart = cc.roc_cost_chart(few, classifier="classifier", facet="dataset")
    assert isinstance(chart, alt.ConcatChart)
    # Each pair is Altair's schema class of a concatenation: copied without merging.
    assert all(isinstance(pair, alt.HConcatSpecGenericSpec) for pair in chart.concat)
    assert [len(pair.hconcat) for pair in chart.concat] == [2, 2]
    titled = chart.properties(title="Two data sets")  # a copy; the original is unchanged
    assert titled.to_dict()["title"] == "Two data sets" and "title" not in chart.to_dict()
    sonar = cc.roc_cost_chart(few[few.dataset == "sonar"], classifier="classifier")
    for composed in (chart & sonar, sonar | sonar.properties(title="again")):
        spec = chart_spec(composed)
        named = {v["name"] for v in spec_views(spec) if "name" in v}
        for param in spec.get("params", []):
            assert set(param.get("views", [])) <= named, param["name"]  # no dangling views
        assert cc.save(composed, tmp_path / "composed.png").stat().st_size > 0
    spec = chart_spec(chart)
    named = {v["name"] for v in spec_views(spec) if "name" in v}
    assert all(set(p["views"]) <= named for p in spec["params"])


@pytest.mark.parametrize("make", [cc.roc_chart, cc.cost_chart, cc.roc_cost_chart])
def test_points_without_thresholds_are_drawn(make):
    points = pd.DataFrame({"fpr": [0.0, 0.2, 0.5, 1.0], "tpr": [0.0, 0.6, 0.8, 1.0]})
    spec = make(points).to_dict()
    rows = [row for rows in spec["datasets"].values() for row in rows]
    # The hull vertex (0.2, 0.6) is drawn, and no threshold was made up for it.
    assert any(row.get("fpr") == 0.2 and row.get("tpr") == 0.6 for row in rows)
    assert all(row.get("threshold") in (None, "") for row in rows)  # blank in tooltips


def test_a_date_facet_gets_a_pair_of_panels_each():
    rng = np.random.default_rng(4)
    dates = pd.to_datetime(np.repeat(["2024-01-01", "2024-02-01"], 60))
    data = pd.DataFrame({"s": rng.random(120), "y": np.arange(120) % 2, "day": dates})
    points = cc.roc_points(data, score="s", label="y", by="day")
    graph = scene(cc.roc_cost_chart(points, facet="day"))
    curves = [m for m in data_marks(graph) if m.marktype == "line" and m.items]
    panels = {m.name.split("_concat")[0] for m in curves if m.name.startswith("concat_")}
    assert panels == {"concat_0", "concat_1"}  # both dates drawn, each in its own pair


def _cost_tops(spec) -> set:
    """The tops of every cost axis scale in a spec (every y encoding with a cost domain)."""
    tops = set()
    for view in spec_views(spec):
        y = view.get("encoding", {}).get("y")
        domain = y.get("scale", {}).get("domain") if isinstance(y, dict) else None
        if domain and y.get("title") == "Normalized expected cost":
            tops.add(domain[1])
    return tops


def _key_labels(spec) -> list:
    """The key's entries (the domain of its shape scale), wherever the key layer is."""
    found = []
    for view in spec_views(spec):
        shape = view.get("encoding", {}).get("shape")
        if isinstance(shape, dict) and shape.get("field") == "costchart_key":
            found.extend(shape["scale"]["domain"])
    return found


def _strong(n=300, seed=1):
    """Predictions of two good classifiers: envelopes far under 0.5."""
    rng = np.random.default_rng(seed)
    y = rng.random(2 * n) < 0.5
    return pd.DataFrame(
        {
            "s": np.r_[rng.normal(2.5 * y[:n], 1), rng.normal(3 * y[n:], 1)],
            "y": y,
            "m": ["a"] * n + ["b"] * n,
        }
    )


def test_the_cost_axis_fits_the_envelopes_and_the_key_says_so():
    from costchart._cost.geometry import fitted_top

    points = cc.roc_points(_strong(), score="s", label="y", by="m")
    highest = cc.lower_envelope(points)["cost"].max()
    top = fitted_top([highest])
    assert highest < top < 0.5  # a strong classifier is no longer squashed under 0.5
    note = f"cost axis to {top:g}, fitted to the curves"
    for chart in (
        cc.cost_chart(points, classifier="m"),
        cc.roc_cost_chart(points, classifier="m"),
        cc.cost_chart(points, classifier="m", combined=True, markers=[0.3]),
    ):
        spec = chart.to_dict()
        assert _cost_tops(spec) == {top}  # every cost layer: one top
        assert _key_labels(spec)[-1] == note
    # Given, the top is as given, and the key says nothing of it.
    for y_max in (0.5, 0.1):
        spec = cc.cost_chart(points, classifier="m", y_max=y_max).to_dict()
        assert _cost_tops(spec) == {y_max}
        assert not any("cost axis" in label for label in _key_labels(spec))
    # A weak classifier's envelope reaches near 0.5: the papers' axis, no note.
    rng = np.random.default_rng(0)
    weak = cc.roc_points({"s": rng.random(400), "y": rng.random(400) < 0.5}, score="s", label="y")
    spec = cc.cost_chart(weak).to_dict()
    assert _cost_tops(spec) == {0.5}
    assert not any("cost axis" in label for label in _key_labels(spec))


def test_the_band_chart_fits_the_band_s_upper_edge():
    from costchart._cost.geometry import fitted_top

    band = cc.bootstrap_band(
        _strong(),
        score="s",
        label="y",
        by="m",
        inference="exact_bootstrap",
        pc=np.linspace(0, 1, 41),
    )
    top = fitted_top(band["upper"])
    assert fitted_top(band["cost"]) < top < 0.5  # the upper edge decides: the band fits
    spec = cc.band_chart(band, classifier="m").to_dict()
    assert _cost_tops(spec) == {top}
    assert _key_labels(spec)[-1] == f"cost axis to {top:g}, fitted to the curves"


def test_the_threshold_choice_chart_fits_its_three_curves():
    from costchart._cost.geometry import fitted_top

    data = _strong()
    data["s"] = 1 / (1 + np.exp(-data["s"] + 1.4))  # probabilities: the Brier curve reads them
    chart = cc.threshold_choice_chart(data, score="s", label="y", classifier="m")
    tables = cc.chart_tables(chart)
    top = fitted_top(
        tables["envelope"]["cost"],
        tables["brier_curve"]["cost"],
        tables["rate_driven_curve"]["cost"],
    )
    assert fitted_top(tables["envelope"]["cost"]) < top  # the other curves decide
    assert _cost_tops(chart.to_dict()) == {top}


def test_layers_fit_the_curve_they_draw_and_others_stop_at_0_5():
    from costchart import layers
    from costchart._cost.geometry import fitted_top

    points = cc.roc_points(_strong(), score="s", label="y", by="m")
    envelope = cc.lower_envelope(points)
    band = cc.bootstrap_band(_strong(), score="s", label="y", by="m", inference="exact_bootstrap")
    assert _cost_tops(layers.envelope(envelope).to_dict()) == {fitted_top(envelope["cost"])}
    assert _cost_tops(layers.band(band).to_dict()) == {fitted_top(band["upper"])}
    for layer in (layers.trivial(), layers.trivial_region(), layers.cost_lines(points)):
        assert _cost_tops(layer.to_dict()) == {0.5}  # no curve to fit
