"""The operating-point explorer: what it draws at a pc, its controls, the browser, Jupyter."""

import numpy as np
import pytest
from scenegraph import data_marks, legend_labels, scene, texts
from test_browser import _chromium

import costchart as cc

SIZE = 280


@pytest.fixture(scope="module")
def sonar(demo_points):
    return demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")


def _chosen_vertex(points, pc):
    """The hull vertex optimal just above pc: pc_lo <= pc < pc_hi (at pc = 1, pc_hi = 1)."""
    hull = cc.roc_hull(points)
    rule = ((hull.pc_lo <= pc) & (pc < hull.pc_hi)) | (
        (pc >= 1) & (hull.pc_lo < 1) & (hull.pc_hi >= 1)
    )
    rows = hull[rule]
    assert len(rows) == 1
    row = rows.iloc[0]
    assert row.threshold in set(cc.iso_performance(points, pc=pc).threshold)  # one of the optimal
    return row


def _ring(graph, name="costchart"):
    marks = [m for m in data_marks(graph) if m.name.startswith(f"{name}_chosen")]
    assert len(marks) == 1
    return marks[0].items


@pytest.mark.parametrize("pc", [0.05, 0.3, 0.5, 0.7, 1.0])
def test_the_chosen_point_is_the_optimal_hull_vertex(pc, sonar):
    tree = sonar[sonar.classifier == "tree"].drop(columns="classifier")
    graph = scene(cc.explorer(tree, name="costchart", pc=pc, size=SIZE))
    (ring,) = _ring(graph)
    vertex = _chosen_vertex(tree, pc)
    assert ring["x"] == pytest.approx(SIZE * vertex.fpr, abs=1e-6)
    assert ring["y"] == pytest.approx(SIZE * (1 - vertex.tpr), abs=1e-6)
    # Its expected cost, written out, is the envelope's at pc.
    cost = float(cc.cost_at(cc.lower_envelope(tree), pc=[pc])["cost"].iloc[0])
    assert f"cost {cost:.4f}" in " ".join(texts(graph))


def test_one_chosen_point_and_matrix_per_classifier(sonar):
    graph = scene(cc.explorer(sonar, name="costchart", classifier="classifier", pc=0.3, size=SIZE))
    rings = _ring(graph)
    assert len(rings) == 3
    written = texts(graph)
    for name in ("logistic", "naive bayes", "tree"):
        points = sonar[sonar.classifier == name]
        vertex = _chosen_vertex(points.drop(columns="classifier"), 0.3)
        assert any(t.startswith(f"{name}: threshold {vertex.threshold:.4g}") for t in written)
        positives = points.tp.max() / (points.tp.max() + points.fp.max())
        expected = {  # rounded half up, as Vega's round
            int(np.floor(1000 * positives * vertex.tpr + 0.5)),
            int(np.floor(1000 * positives * (1 - vertex.tpr) + 0.5)),
            int(np.floor(1000 * (1 - positives) * vertex.fpr + 0.5)),
            int(np.floor(1000 * (1 - positives) * (1 - vertex.fpr) + 0.5)),
        }
        assert expected <= {
            int(t.replace(",", "")) for t in written if t.replace(",", "").isdigit()
        }


def test_the_iso_performance_line_has_slope_from_pc_and_touches_the_vertex(sonar):
    tree = sonar[sonar.classifier == "tree"].drop(columns="classifier")
    graph = scene(cc.explorer(tree, name="costchart", pc=0.4, size=SIZE))
    rules = [
        item
        for mark in data_marks(graph)
        if mark.marktype == "rule"
        for item in mark.items
        if item.get("strokeDash") == [2, 3]
    ]
    assert len(rules) == 1
    (line,) = rules
    slope = -(line["y2"] - line["y"]) / (line["x2"] - line["x"])
    assert slope == pytest.approx((1 - 0.4) / 0.4)
    vertex = _chosen_vertex(tree, 0.4)
    at_vertex = line["y"] + (SIZE * vertex.fpr - line["x"]) * -slope
    assert at_vertex == pytest.approx(SIZE * (1 - vertex.tpr), abs=1e-6)


def test_cost_controls_set_pc_from_the_cost_ratio_and_prevalence(sonar):
    tree = sonar[sonar.classifier == "tree"].drop(columns="classifier")
    chart = cc.explorer(tree, name="costchart", controls="costs", cost_ratio=3, p_pos=0.2)
    params = {p["name"]: p for p in chart.to_dict()["params"]}
    assert set(params) == {"costchart_pc", "costchart_ratio", "costchart_prevalence"}
    graph = scene(chart)
    pc = cc.pc_from_costs(0.2, cost_fn=3.0, cost_fp=1.0)
    (ring,) = _ring(graph)
    vertex = _chosen_vertex(tree, pc)
    assert ring["x"] == pytest.approx(SIZE * vertex.fpr, abs=1e-6)
    assert f"pc = {pc:.3f}, per 1,000 cases:" in texts(graph)
    # The matrix uses the prevalence of the control: 200 positives per 1,000.
    numbers = {int(t.replace(",", "")) for t in texts(graph) if t.replace(",", "").isdigit()}
    assert int(np.floor(200 * vertex.tpr + 0.5)) in numbers
    assert int(np.floor(800 * vertex.fpr + 0.5)) in numbers


def test_the_key_names_what_is_drawn(sonar):
    labels = legend_labels(scene(cc.explorer(sonar, name="costchart", classifier="classifier")))
    assert {"iso-performance line at pc", "chosen threshold", "lower envelope"} <= set(labels)


def test_names_prefix_the_parameters(sonar):
    chart = cc.explorer(sonar, classifier="classifier", name="mine")
    assert [p["name"] for p in chart.to_dict()["params"]] == ["mine_pc"]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"pc": 1.5}, r"pc=1\.5 is outside \[0, 1\]"),
        ({"controls": "slider"}, r"controls='slider' is not an option"),
        ({"classifier": "model"}, r"classifier='model' is not a grouping column of points"),
        ({"name": "my name"}, r"name='my name' must be a Python identifier"),
        ({"controls": "costs", "cost_ratio": 100}, r"cost_ratio=100.* is outside"),
        ({"size": 10}, r"size=10 must be a whole number of pixels"),
        ({"title": 3}, r"title=3 must be a string"),
    ],
)
def test_bad_options_are_refused(kwargs, message, sonar):
    with pytest.raises(cc.CostchartError, match=message):
        cc.explorer(sonar, **{"classifier": "classifier", "name": "costchart", **kwargs})


def test_several_curves_per_colour_are_refused(demo_points):
    with pytest.raises(cc.CostchartError, match=r"\['dataset'\] also tell curves apart"):
        cc.explorer(demo_points, name="costchart", classifier="classifier")


def test_the_colour_is_the_one_grouping_that_tells_curves_apart(demo_points):
    # Filtered to one data set, 'dataset' tells no curves apart; 'classifier' does.
    sonar_only = demo_points[demo_points.dataset == "sonar"]
    inferred = scene(cc.explorer(sonar_only, name="costchart", pc=0.3))
    declared = scene(cc.explorer(sonar_only, name="costchart", pc=0.3, classifier="classifier"))
    assert len(_ring(inferred)) == 3
    assert sorted(texts(inferred)) == sorted(texts(declared))
    assert {"logistic", "naive bayes", "tree"} <= set(legend_labels(inferred))
    with pytest.raises(cc.CostchartError, match=r"\['dataset', 'classifier'\] also tell"):
        cc.explorer(demo_points, name="costchart")


def test_the_readout_names_both_trivial_ends_and_stays_in_its_panel(sonar):
    tree = sonar[sonar.classifier == "tree"].drop(columns="classifier")
    top = texts(scene(cc.explorer(tree, name="costchart", pc=1.0)))
    assert any("(always positive)\ncost" in t for t in top), top
    bottom = scene(cc.explorer(sonar, name="costchart", classifier="classifier", pc=0.0))
    readouts = [
        item
        for m in data_marks(bottom)
        if m.marktype == "text"
        for item in m.items
        if "(always negative)" in str(item.get("text"))
    ]
    assert readouts and all(item.get("limit") == 260 for item in readouts)  # the panel's width


def test_the_data_prevalence_is_shown_rounded(sonar):
    tree = sonar[sonar.classifier == "tree"].drop(columns="classifier")
    chart = cc.explorer(tree, name="costchart", controls="costs")
    params = {p["name"]: p for p in chart.to_dict()["params"]}
    prevalence = tree.tp.max() / (tree.tp.max() + tree.fp.max())
    assert params["costchart_prevalence"]["value"] == round(prevalence, 2) != prevalence


def test_points_without_counts_are_refused():
    points = {"threshold": [np.inf, 1.0, -np.inf], "fpr": [0, 0.2, 1], "tpr": [0, 0.7, 1]}
    with pytest.raises(cc.CostchartError, match=r"needs the confusion counts"):
        cc.explorer(points, name="costchart")


def test_jupyter_chart_reads_the_parameters_back(sonar):
    pytest.importorskip("anywidget")
    import altair as alt

    chart = alt.JupyterChart(cc.explorer(sonar, name="costchart", classifier="classifier", pc=0.25))
    assert chart.params.costchart_pc == pytest.approx(0.25)
    # The thresholds of that pc, in Python.
    chosen = cc.iso_performance(sonar, pc=chart.params.costchart_pc, by="classifier")
    assert set(chosen.classifier) == {"logistic", "naive bayes", "tree"}


@pytest.mark.slow
def test_moving_the_explorer_slider_moves_the_chosen_threshold(demo_points, tmp_path):
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = _chromium()
    sonar = demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")
    path = cc.save(
        cc.explorer(sonar, name="costchart", classifier="classifier", pc=0.3),
        tmp_path / "explorer.html",
    )
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        page = browser.new_page(viewport={"width": 1600, "height": 1000})
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(path.as_uri())
        page.wait_for_selector("#costchart-chart-0 input[type=range]", timeout=30_000)
        rings = "#costchart-chart-0 [class*=costchart_chosen] path"
        before = [page.locator(rings).nth(i).get_attribute("transform") for i in range(3)]
        text_before = page.locator("#costchart-chart-0 svg text").all_text_contents()
        assert "pc = 0.300, per 1,000 cases:" in text_before
        slider = page.locator("#costchart-chart-0 input[type=range]")
        slider.evaluate(
            """(input) => { input.value = "0.8";
                 input.dispatchEvent(new Event("input", {bubbles: true}));
                 input.dispatchEvent(new Event("change", {bubbles: true})); }"""
        )
        page.wait_for_function(
            """() => Array.from(document.querySelectorAll("#costchart-chart-0 svg text"))
                 .some(t => t.textContent === "pc = 0.800, per 1,000 cases:")""",
            timeout=10_000,
        )
        after = [page.locator(rings).nth(i).get_attribute("transform") for i in range(3)]
        assert page.evaluate("window.costchartViews[0].signal('costchart_pc')") == 0.8
        browser.close()
    assert after != before  # the chosen points moved along the hulls
    assert errors == []
