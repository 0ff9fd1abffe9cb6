"""The saved HTML in a real browser: renders offline, links the views, resists injection.

Runs headless Debian Chromium through Playwright. Without Chromium the test is skipped
locally (install it with `apt-get install chromium`); in CI (CI is set) it fails instead,
because .ci/run installs Chromium.
"""

import json
import math
import os
import random
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from test_combined import CLASSIFIERS, random_points, union_of, without_collinear

import costchart as cc
from costchart._charts import drawn_tables

pytestmark = pytest.mark.slow

EVIL = "</script><script>window.pwned=1</script>"


def _chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None and Path("/usr/bin/chromium").exists():
        path = "/usr/bin/chromium"
    if path is None:
        reason = "Chromium is not installed (apt-get install chromium)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return path


@pytest.fixture(scope="module")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = _chromium()
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()


def recording_page(browser, width: int = 1400, height: int = 1200):
    """A new page that records its errors and blocks, and records, every request off file.

    ``page.costchart_errors`` holds page errors and console errors, and
    ``page.costchart_requests`` the addresses it tried to load from elsewhere.
    """
    page = browser.new_page(viewport={"width": width, "height": height})
    page.costchart_errors = []
    page.costchart_requests = []
    page.on("pageerror", lambda error: page.costchart_errors.append(str(error)))
    page.on(
        "console",
        lambda message: (
            page.costchart_errors.append(message.text) if message.type == "error" else None
        ),
    )

    def route(request_route):
        if request_route.request.url.startswith("file:"):
            request_route.continue_()
        else:
            page.costchart_requests.append(request_route.request.url)
            request_route.abort()

    page.route("**/*", route)
    return page


def _offline_page(browser, path: Path, height: int = 1200, ready: str = "costchart_roc_targets"):
    """A :func:`recording_page` on ``path``, ready when a view named ``ready...`` is drawn."""
    page = recording_page(browser, height=height)
    page.goto(path.as_uri())
    page.wait_for_selector(f"#costchart-chart-0 svg [class*={ready}]", timeout=30_000)
    return page


def hover_hits(page, targets, highlighted: str) -> int:
    """How many of a spread of hovered ROC points (``targets``) highlight a cost line.

    ``highlighted`` is the script counting highlighted cost lines; moving away must clear
    the highlight every time.
    """
    page.mouse.move(1, 1)
    assert page.evaluate(highlighted) == 0
    count = targets.count()
    hits = 0
    for index in range(count // 4, count, max(count // 8, 1)):
        page.mouse.move(*_center(page, targets.nth(index)))
        hits += page.evaluate(highlighted) >= 1
        page.mouse.move(1, 1)
    assert page.evaluate(highlighted) == 0  # moving away clears the highlight
    return hits


@pytest.fixture(scope="module")
def page(demo_points, tmp_path_factory, browser):
    points = demo_points[demo_points.dataset.isin(["sonar", "diabetes"])]
    points = points.replace({"classifier": {"naive bayes": EVIL}})
    # y_max=0.5: the tests below point at given lines, placed on the papers' axis
    chart = cc.roc_cost_chart(points, classifier="classifier", facet="dataset", size=240, y_max=0.5)
    path = cc.save(chart, tmp_path_factory.mktemp("html") / "linked.html")
    page = _offline_page(browser, path)
    yield page
    page.close()


def test_renders_offline_without_errors(page):
    assert page.costchart_errors == []
    assert page.costchart_requests == []
    assert page.locator("#costchart-chart-0 svg.marks").count() == 1


def test_injected_name_is_text_not_code(page):
    assert page.evaluate("typeof window.pwned") == "undefined"
    texts = page.locator("svg text").all_text_contents()
    assert any(text.startswith("</script><script>window.pwned") for text in texts), texts


_HIGHLIGHTED_LINES = (
    'document.querySelectorAll("#costchart-chart-0 g.role-mark path[stroke-width=\\"3\\"]").length'
)

_LARGEST_MARKER = """() => Math.max(...Array.from(
  document.querySelectorAll('#costchart-chart-0 path[aria-roledescription="circle"]'))
  .filter(p => parseFloat(p.getAttribute("fill-opacity") || "1") > 0)
  .map(p => p.getBBox().width))"""


def _center(page, element) -> tuple[float, float]:
    box = element.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_hovering_a_roc_point_highlights_its_cost_line(page):
    targets = page.locator("#costchart-chart-0 [class*=costchart_roc_targets] path")
    hits = hover_hits(page, targets, _HIGHLIGHTED_LINES)
    assert hits >= 5, f"{hits} of the hovered ROC points highlighted a cost line"


def test_hovering_a_cost_line_highlights_its_roc_point(page):
    page.mouse.move(1, 1)
    resting = page.evaluate(_LARGEST_MARKER)
    targets = page.locator("#costchart-chart-0 [class*=costchart_cost_targets] line")
    (x0, y0, x1, y1) = _segments(page)[5]
    assert targets.count() > 5
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2)
    assert page.evaluate(_LARGEST_MARKER) > 2 * resting
    assert page.evaluate(_HIGHLIGHTED_LINES) >= 1


#: The screen ends of every cost line's hover target (a rule per line).
_TARGET_ENDS = """() => Array.from(
  document.querySelectorAll('#costchart-chart-0 [class*=costchart_cost_targets] line'))
  .map(line => {
    const m = line.getScreenCTM();
    const at = (x, y) => [x * m.a + y * m.c + m.e, x * m.b + y * m.d + m.f];
    const get = (name) => +(line.getAttribute(name) || 0);
    return [...at(get("x1"), get("y1")), ...at(get("x2"), get("y2"))];
  })"""

_TOOLTIP_SHOWN = """() => {
  const tip = document.getElementById("vg-tooltip-element");
  return !!tip && tip.classList.contains("visible");
}"""


def _segments(page) -> list[tuple[float, float, float, float]]:
    return [tuple(ends) for ends in page.evaluate(_TARGET_ENDS)]


def _distance(x, y, segment) -> float:
    x0, y0, x1, y1 = segment
    dx, dy = x1 - x0, y1 - y0
    along = max(0.0, min(1.0, ((x - x0) * dx + (y - y0) * dy) / ((dx * dx + dy * dy) or 1.0)))
    return math.hypot(x - x0 - along * dx, y - y0 - along * dy)


def test_pointing_near_a_cost_line_shows_its_tooltip(page):
    # Each line's hover target is one rule: a two-point line mark gave Vega two items, and
    # the pointer got the tooltip of the one nearest along pc, which was mostly neither
    # (1 position in 20 within 5 px of a line showed one).
    segments = _segments(page)
    xs = [v for s in segments for v in (s[0], s[2])]
    ys = [v for s in segments for v in (s[1], s[3])]
    rng = random.Random(0)
    near = []
    while len(near) < 150:
        x, y = rng.uniform(min(xs), max(xs)), rng.uniform(min(ys), max(ys))
        if min(_distance(x, y, s) for s in segments) <= 5:
            near.append((x, y))
    shown = 0
    for x, y in near:
        page.mouse.move(x, y)
        page.wait_for_timeout(20)
        shown += page.evaluate(_TOOLTIP_SHOWN)
    page.mouse.move(1, 1)
    assert shown >= len(near) / 3, f"{shown} of {len(near)} positions near a line showed a tooltip"


def test_clicking_a_legend_entry_isolates_a_classifier(page):
    page.mouse.move(1, 1)
    faded = 'document.querySelectorAll("#costchart-chart-0 path[stroke-opacity=\\"0.06\\"]").length'
    assert page.evaluate(faded) == 0
    page.locator("#costchart-chart-0 .role-legend-label text").first.click()
    assert page.evaluate(faded) > 0


def _highlighted_after_hovering_first_chart(page) -> list[int]:
    """Highlighted cost lines after hovering each of a few ROC points of the first chart."""
    counts = []
    targets = page.locator("#costchart-chart-0 [class*=costchart_roc_targets] path")
    first = targets.count() // 2  # the first chart's targets come first
    for index in range(first // 4, first, max(first // 6, 1)):
        page.mouse.move(*_center(page, targets.nth(index)))
        counts.append(page.evaluate(_HIGHLIGHTED_LINES))
        page.mouse.move(1, 1)
    return counts


@pytest.mark.filterwarnings("ignore:Automatically deduplicated selection parameter")
@pytest.mark.parametrize("same_names", [False, True])
def test_two_composed_charts_keep_their_hovering_apart(demo_points, tmp_path, same_names, browser):
    # The same classifiers (and line numbers) in two data sets: a selection shared by both
    # charts would highlight a line in each. Content-made names keep them apart; forcing
    # one name on both shows what the test would see if they collided.
    views = []
    for dataset in ("sonar", "diabetes"):
        points = demo_points[demo_points.dataset == dataset].drop(columns="dataset")
        name = "same" if same_names else None
        views.append(cc.roc_cost_chart(points, classifier="classifier", size=200, name=name))
    path = cc.save(views[0] & views[1], tmp_path / "two.html")
    page = _offline_page(browser, path, height=1400)
    try:
        counts = _highlighted_after_hovering_first_chart(page)
        assert page.costchart_errors == [] and page.costchart_requests == []
    finally:
        page.close()
    hovered = [c for c in counts if c > 0]
    assert len(hovered) >= 3, counts
    if same_names:
        assert max(hovered) >= 2  # one name: both charts react
    else:
        assert set(hovered) == {1}, counts  # each chart its own selection


def _crowded_points():
    """12 curves in one panel (3 classifiers x 4 folds): more than a panel draws in full."""
    rng = np.random.default_rng(5)
    curves, per_curve = 12, 150
    label = rng.random(curves * per_curve) < 0.4
    data = {
        "classifier": np.repeat(np.array(["a", "b", "c"])[np.arange(curves) % 3], per_curve),
        "fold": np.repeat(np.arange(curves) // 3, per_curve),
        "s": rng.normal(size=curves * per_curve)
        + label * np.repeat(1 + np.arange(curves) % 3, per_curve),
        "y": label,
    }
    return cc.roc_points(data, score="s", label="y", by=["classifier", "fold"])


@pytest.fixture(scope="module")
def crowded(tmp_path_factory, browser):
    points = _crowded_points()
    chart = cc.roc_cost_chart(points, classifier="classifier", name="crowd", size=300, y_max=0.5)
    path = cc.save(chart, tmp_path_factory.mktemp("crowded") / "crowded.html")
    page = _offline_page(browser, path)
    yield page, chart, points
    page.close()


#: The stroke colours of the cost lines drawn (normal and highlighted widths).
_COST_LINE_COLOURS = """() => Array.from(document.querySelectorAll(
  '#costchart-chart-0 g.role-mark path[stroke-width="0.8"], '
  + '#costchart-chart-0 g.role-mark path[stroke-width="3"]')).map(p => p.getAttribute("stroke"))"""


def _visible_hull_lines(points, classifier, fold) -> int:
    """Cost lines the chart draws for one curve: its hull vertices' lines below y_max 0.5."""
    tables = drawn_tables(points, color="classifier")
    curve = tables.points[
        (tables.points.classifier == classifier)
        & (tables.points.fold == fold)
        & tables.points.on_hull
    ]
    return int(((curve.fpr <= 0.5) | (1 - curve.tpr <= 0.5)).sum())


def test_a_crowded_chart_draws_cost_lines_only_for_the_hovered_curve(crowded):
    page, _, points = crowded
    page.mouse.move(1, 1)
    assert page.costchart_errors == [] and page.costchart_requests == []
    assert page.evaluate(_COST_LINE_COLOURS) == []  # nothing hovered: no cost lines
    targets = page.locator("#costchart-chart-0 [class*=costchart_roc_targets] path")
    seen = set()
    for index in range(0, targets.count(), max(targets.count() // 10, 1)):
        page.mouse.move(*_center(page, targets.nth(index)))
        stored = page.evaluate(
            "() => window.costchartViews[0].data('crowd_curve_store').map(t => t.values)"
        )
        assert len(stored) == 1
        classifier, fold = stored[0]
        colours = page.evaluate(_COST_LINE_COLOURS)
        assert len(colours) == _visible_hull_lines(points, classifier, fold)
        assert len(set(colours)) == 1  # one curve, one colour
        seen.add((classifier, fold))
        page.mouse.move(1, 1)
        assert page.evaluate(_COST_LINE_COLOURS) == []
    assert len(seen) >= 4


def test_a_clicked_curve_keeps_its_cost_lines_until_a_double_click(crowded):
    page, _, points = crowded
    page.mouse.move(1, 1)
    targets = page.locator("#costchart-chart-0 [class*=costchart_roc_targets] path")
    target = _center(page, targets.nth(targets.count() // 3))
    page.mouse.click(*target)
    page.mouse.move(1, 1)  # no longer hovering: the click keeps the curve
    stored = page.evaluate(
        "() => window.costchartViews[0].data('crowd_picked_store').map(t => t.values)"
    )
    assert len(stored) == 1
    colours = page.evaluate(_COST_LINE_COLOURS)
    assert len(colours) == _visible_hull_lines(points, *stored[0]) and len(set(colours)) == 1
    page.mouse.dblclick(*target)
    page.mouse.move(1, 1)
    assert page.evaluate(_COST_LINE_COLOURS) == []


def test_a_crowded_chart_draws_the_cost_lines_of_a_classifier_picked_in_the_legend(crowded):
    page, _, points = crowded
    page.mouse.move(1, 1)
    page.locator("#costchart-chart-0 .role-legend-label text").first.click()
    page.mouse.move(1, 1)
    colours = page.evaluate(_COST_LINE_COLOURS)
    expected = sum(_visible_hull_lines(points, "a", fold) for fold in range(4))
    assert len(colours) == expected and len(set(colours)) == 1
    # Shift-clicking the same entry removes it again.
    page.locator("#costchart-chart-0 .role-legend-label text").first.click(modifiers=["Shift"])
    page.mouse.move(1, 1)
    assert page.evaluate(_COST_LINE_COLOURS) == []


def test_the_page_unpacks_exactly_the_rows_of_the_spec(crowded):
    from costchart._export.image import chart_spec

    page, chart, _ = crowded
    spec = chart_spec(chart)
    for name, rows in spec["datasets"].items():
        drawn = page.evaluate(
            f"() => JSON.stringify(window.costchartViews[0].data({json.dumps(name)}))"
        )
        assert json.loads(drawn) == json.loads(json.dumps(rows))


# The envelope of the classifiers shown (combined=True), recomputed by the page.

#: Every drawn item of a combined layer ("envelope" or "hull"), once the view has run.
_COMBINED_ROWS = """async (tag) => {
  const view = window.costchartViews[0];
  await view.runAsync();
  const rows = [];
  const walk = (node) => {
    for (const item of (node && node.items) || []) {
      const d = item.datum;
      if (d && d.costchart_combined === tag) {
        rows.push({dataset: d.dataset, pc: d.pc, cost: d.cost, fpr: d.fpr, tpr: d.tpr});
      }
      walk(item);
    }
  };
  walk(view.scenegraph().root);
  return rows;
}"""


def _assert_envelope_of(page, points, shown) -> None:
    """The drawn envelope of each panel is the lower envelope of ``shown``'s points."""
    rows = pd.DataFrame(page.evaluate(_COMBINED_ROWS, "envelope"))
    assert set(rows.dataset) == {"d1", "d2"}
    for dataset, drawn in rows.groupby("dataset"):
        drawn = drawn.sort_values("pc")
        pc, cost = drawn.pc.to_numpy(np.float64), drawn.cost.to_numpy(np.float64)
        expected = cc.lower_envelope(union_of(points, dataset, shown))
        at_drawn = np.interp(pc, expected.pc, expected.cost)
        np.testing.assert_allclose(cost, at_drawn, rtol=0, atol=1e-9, err_msg=str(shown))
        # Every bend of the true envelope is a drawn point: the lines coincide between.
        nearest = np.abs(expected.pc.to_numpy()[:, None] - pc[None, :]).min(axis=1)
        assert nearest.max() < 1e-9, (dataset, shown)


def _assert_hull_of(page, points, shown) -> None:
    """The drawn ROC hull of each panel is the convex hull of ``shown``'s points."""
    rows = pd.DataFrame(page.evaluate(_COMBINED_ROWS, "hull"))
    assert set(rows.dataset) == {"d1", "d2"}
    for dataset, drawn in rows.groupby("dataset"):
        drawn = drawn.assign(along=drawn.fpr + drawn.tpr).sort_values("along", kind="stable")
        fpr, tpr = without_collinear(drawn.fpr.to_numpy(), drawn.tpr.to_numpy())
        hull = cc.roc_hull(union_of(points, dataset, shown))
        want_fpr, want_tpr = without_collinear(hull.fpr.to_numpy(), hull.tpr.to_numpy())
        assert len(fpr) == len(want_fpr), (dataset, shown)
        np.testing.assert_allclose(fpr, want_fpr, rtol=0, atol=1e-9)
        np.testing.assert_allclose(tpr, want_tpr, rtol=0, atol=1e-9)


def _legend_entry(page, label: str):
    """The colour legend's entry ``label`` (exactly: key labels hold the same letters)."""
    labels = page.locator("#costchart-chart-0 .role-legend-label text")
    return labels.filter(has_text=re.compile(f"^{re.escape(label)}$")).first


def _check_picks(page, points) -> None:
    """Nothing picked, one classifier clicked, a second shift-clicked: each time exact."""
    page.mouse.move(1, 1)
    _assert_envelope_of(page, points, CLASSIFIERS)  # nothing picked: all shown
    _legend_entry(page, "b").click()
    page.mouse.move(1, 1)
    _assert_envelope_of(page, points, ["b"])
    _legend_entry(page, "c").click(modifiers=["Shift"])
    page.mouse.move(1, 1)
    _assert_envelope_of(page, points, ["b", "c"])
    assert page.costchart_errors == [] and page.costchart_requests == []


@pytest.fixture(scope="module")
def combined(tmp_path_factory, browser):
    points = random_points(21)
    chart = cc.roc_cost_chart(
        points, classifier="classifier", facet="dataset", combined=True, name="comb", size=240
    )
    path = cc.save(chart, tmp_path_factory.mktemp("combined") / "combined.html")
    page = _offline_page(browser, path, height=1400)
    yield page, chart, points
    page.close()


def test_the_envelope_of_the_classifiers_picked_in_the_legend_is_exact(combined):
    page, _, points = combined
    _check_picks(page, points)


def test_the_roc_hull_of_the_classifiers_picked_in_the_legend_is_exact(combined):
    page, _, points = combined
    _legend_entry(page, "a").click()  # a click replaces whatever was picked before
    page.mouse.move(1, 1)
    _assert_hull_of(page, points, ["a"])
    _legend_entry(page, "c").click(modifiers=["Shift"])
    page.mouse.move(1, 1)
    _assert_hull_of(page, points, ["a", "c"])
    _legend_entry(page, "b").click(modifiers=["Shift"])
    page.mouse.move(1, 1)
    _assert_hull_of(page, points, CLASSIFIERS)


def test_a_crowded_cost_chart_keeps_the_envelope_of_the_classifiers_picked(tmp_path, browser):
    points = random_points(22, folds=5)
    chart = cc.cost_chart(
        points, classifier="classifier", facet="dataset", combined=True, name="cr"
    )
    assert drawn_tables(points, color="classifier", facet="dataset").crowded
    path = cc.save(chart, tmp_path / "crowded_combined.html")
    page = _offline_page(browser, path, height=1000, ready="costchart_cost_targets")
    try:
        _check_picks(page, points)
    finally:
        page.close()


# The same page embedded as a web site would: vega, vega-lite and vega-embed from npm.

NODE_MODULES = Path(__file__).parent / "js" / "node_modules"

_NPM_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>costchart with vega-embed from npm</title></head>
<body>
<div id="costchart-chart-0"></div>
<script src="{vega}"></script>
<script src="{vega_lite}"></script>
<script src="{vega_embed}"></script>
<script type="application/json" id="spec">{spec}</script>
<script>
const spec = JSON.parse(document.getElementById("spec").textContent);
vegaEmbed("#costchart-chart-0", spec, {{renderer: "svg"}}).then((result) => {{
  window.costchartViews = [result.view];
}});
</script>
</body></html>
"""


def _npm_libraries() -> dict[str, str]:
    """The three libraries' browser builds, as file URLs; skip (fail in CI) without them."""
    files = {
        "vega": NODE_MODULES / "vega" / "build" / "vega.min.js",
        "vega_lite": NODE_MODULES / "vega-lite" / "build" / "vega-lite.min.js",
        "vega_embed": NODE_MODULES / "vega-embed" / "build" / "vega-embed.min.js",
    }
    if not all(path.exists() for path in files.values()):
        reason = "tests/js/node_modules is missing (npm ci --prefix tests/js)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return {name: path.as_uri() for name, path in files.items()}


def test_vega_embed_from_npm_recomputes_the_envelope_of_the_classifiers_picked(tmp_path, browser):
    from costchart._export.html import safe_json

    libraries = _npm_libraries()
    points = random_points(23)
    chart = cc.roc_cost_chart(
        points, classifier="classifier", facet="dataset", combined=True, name="npm", size=240
    )
    spec = json.loads(cc.save(chart, tmp_path / "chart.json").read_text())
    page_path = tmp_path / "npm.html"
    page_path.write_text(_NPM_PAGE.format(spec=safe_json(spec), **libraries), encoding="utf-8")
    page = _offline_page(browser, page_path, height=1400)
    try:
        versions = page.evaluate("() => [vega.version, vegaLite.version, vegaEmbed.version]")
        assert [v.split(".")[0] for v in versions] == ["6", "6", "7"], versions
        _check_picks(page, points)
        _assert_hull_of(page, points, ["b", "c"])
    finally:
        page.close()


def test_hovering_still_links_the_views_under_the_combined_layers(combined):
    page, _, _ = combined
    page.mouse.move(1, 1)
    # The combined layers are 3 px wide too: count what a hover adds to them at rest.
    at_rest = page.evaluate(_HIGHLIGHTED_LINES)
    targets = page.locator("#costchart-chart-0 [class*=costchart_roc_targets] path")
    hits = 0
    for index in range(0, targets.count(), max(targets.count() // 12, 1)):
        page.mouse.move(*_center(page, targets.nth(index)))
        hits += page.evaluate(_HIGHLIGHTED_LINES) > at_rest
        page.mouse.move(1, 1)
    assert hits >= 8, f"{hits} of the hovered ROC points highlighted a cost line"


def test_the_cheapest_set_chart_links_its_views_and_strip(tmp_path, browser):
    """Hovering a ROC point highlights its cost line; the legend fades the strip's bars too."""
    from costchart.datasets import load_predictions

    data = load_predictions()
    two = data[data.dataset.isin(["sonar", "diabetes"])]
    chart = cc.cheapest_set_chart(
        two,
        score="score",
        label="label",
        classifier="classifier",
        instance="instance",
        by="dataset",
        n_resamples=1000,
        rng=0,
        pc=np.linspace(0, 1, 101),
        size=240,
        cost_lines="all",  # every ROC point hovered has a cost line to highlight
    )
    bars = len(cc.chart_tables(chart)["cheapest_set"])
    page = _offline_page(browser, cc.save(chart, tmp_path / "set.html"), height=1600)
    try:
        assert page.costchart_errors == [] and page.costchart_requests == []
        targets = page.locator("#costchart-chart-0 [class*=costchart_roc_targets] path")
        hits = hover_hits(page, targets, _HIGHLIGHTED_LINES)
        assert hits >= 5, f"{hits} of the hovered ROC points highlighted a cost line"
        rects = "#costchart-chart-0 g.mark-rect path"
        faded = f"document.querySelectorAll('{rects}[fill-opacity=\"0.06\"]').length"
        assert page.evaluate(f"document.querySelectorAll('{rects}').length") == bars
        assert page.evaluate(faded) == 0
        page.locator("#costchart-chart-0 .role-legend-label text").first.click()
        assert 0 < page.evaluate(faded) < bars  # the classifiers not picked fade
        assert page.costchart_errors == []
    finally:
        page.close()
