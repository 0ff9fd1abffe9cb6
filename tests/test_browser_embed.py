"""The web-page snippet of docs/embed.md, run as written in Chromium.

docs/snippets/embed.html is the page the docs show (included, not copied). This test reads
it, checks that the library versions it loads are the ones tests/js/package.json pins (the
ones tested here), puts each CDN address's file from tests/js/node_modules in its place
(the file the CDN serves: the package's ``jsdelivr`` entry) and costchart's spec where the
page says to paste it, and checks that the chart draws offline, that hovering links the
views and that the legend picks a classifier, as tests/test_browser.py does for saved pages.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from test_browser import (  # noqa: F401  (browser: the fixture)
    _npm_libraries,
    browser,
    hover_hits,
    recording_page,
)

import costchart as cc

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
SNIPPET = ROOT / "docs" / "snippets" / "embed.html"
PACKAGES = ROOT / "tests" / "js"
EVIL = "</script><script>window.pwned=1</script>"

_CDN = re.compile(r'<script src="https://cdn\.jsdelivr\.net/npm/([a-z-]+)@([0-9.]+)"></script>')


def test_the_snippet_loads_the_versions_the_tests_pin():
    pinned = json.loads((PACKAGES / "package.json").read_text())["dependencies"]
    loaded = dict(_CDN.findall(SNIPPET.read_text()))
    assert loaded == pinned
    locked = json.loads((PACKAGES / "package-lock.json").read_text())["packages"]
    assert {name: locked[f"node_modules/{name}"]["version"] for name in pinned} == pinned


def test_the_docs_page_includes_the_snippet_file():
    page = (ROOT / "docs" / "embed.md").read_text()
    assert re.search(r"```\{literalinclude\} snippets/embed\.html\n", page)


def _local_page(spec_text: str) -> str:
    """The snippet with the npm builds for the CDN's and the spec pasted in."""
    _npm_libraries()  # skip (fail in CI) without tests/js/node_modules

    def local(match: re.Match) -> str:
        package = PACKAGES / "node_modules" / match.group(1)
        entry = json.loads((package / "package.json").read_text())["jsdelivr"]
        return f'<script src="{(package / entry).as_uri()}"></script>'

    page, replaced = _CDN.subn(local, SNIPPET.read_text())
    assert replaced == 3
    assert page.count("CHART_JSON") == 2  # the comment's and the place to paste
    return page.replace(">CHART_JSON<", f">{spec_text}<")


#: Cost lines drawn highlighted (3 px), as tests/test_browser.py counts them.
_HIGHLIGHTED = 'document.querySelectorAll("#chart g.role-mark path[stroke-width=\\"3\\"]").length'
_FADED = 'document.querySelectorAll("#chart path[stroke-opacity=\\"0.06\\"]").length'


@pytest.fixture(scope="module")
def embedded(demo_points, tmp_path_factory, browser):  # noqa: F811
    folder = tmp_path_factory.mktemp("embed")
    points = demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")
    points = points.replace({"classifier": {"naive bayes": EVIL}})
    chart = cc.roc_cost_chart(points, classifier="classifier", size=260)
    spec_text = cc.save(chart, folder / "c.json").read_text()  # pasted as it is
    path = folder / "page.html"
    path.write_text(_local_page(spec_text), encoding="utf-8")
    page = recording_page(browser, height=1000)
    page.goto(path.as_uri())
    page.wait_for_selector("#chart svg [class*=costchart_roc_targets]", timeout=30_000)
    yield page
    page.close()


def test_the_snippet_draws_the_chart_offline(embedded):
    assert embedded.costchart_errors == [] and embedded.costchart_requests == []
    assert embedded.locator("#chart svg.marks").count() == 1
    versions = embedded.evaluate("() => [vega.version, vegaLite.version, vegaEmbed.version]")
    pinned = json.loads((PACKAGES / "package.json").read_text())["dependencies"]
    assert versions == [pinned["vega"], pinned["vega-lite"], pinned["vega-embed"]]


def test_a_pasted_hostile_name_stays_text(embedded):
    assert embedded.evaluate("() => typeof window.pwned") == "undefined"
    texts = embedded.locator("#chart svg text").all_text_contents()
    assert any(text.startswith("</script><script>window.pwned") for text in texts), texts


def test_hovering_a_roc_point_highlights_its_cost_line(embedded):
    targets = embedded.locator("#chart [class*=costchart_roc_targets] path")
    hits = hover_hits(embedded, targets, _HIGHLIGHTED)
    assert hits >= 5, f"{hits} of the hovered ROC points highlighted a cost line"


def test_clicking_a_legend_entry_isolates_a_classifier(embedded):
    embedded.mouse.move(1, 1)
    assert embedded.evaluate(_FADED) == 0
    embedded.locator("#chart .role-legend-label text").first.click()
    embedded.mouse.move(1, 1)
    one_shown = embedded.evaluate(_FADED)
    assert one_shown > 0
    # Shift-click adds a second classifier: fewer lines faded.
    embedded.locator("#chart .role-legend-label text").nth(1).click(modifiers=["Shift"])
    embedded.mouse.move(1, 1)
    assert 0 < embedded.evaluate(_FADED) < one_shown
    # A double click in the chart shows every classifier again.
    box = embedded.locator("#chart svg.marks").bounding_box()
    embedded.mouse.dblclick(box["x"] + 5, box["y"] + 5)
    embedded.mouse.move(1, 1)
    assert embedded.evaluate(_FADED) == 0
