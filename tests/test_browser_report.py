"""A report of charts, tables and text in Chromium: hostile cells and text stay text.

Runs like tests/test_browser.py (headless Debian Chromium through Playwright; skipped
without them locally, failing in CI).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from test_browser import _offline_page, browser  # noqa: F401  (the fixture)

import costchart as cc

pytestmark = pytest.mark.slow

EVIL = "</script><script>window.pwned=1</script>"
IMG = "<img src=x onerror=window.pwned=2>"
SVG = "<svg onload=window.pwned=3>"

_NOTHING_RAN = "() => typeof window.pwned"

#: Elements a hostile text would have made, anywhere in the page's sections.
_INJECTED = """() => document.querySelectorAll(
  'figure img, figure svg[onload], figure script, section img, a[href^="javascript"]').length"""


@pytest.fixture(scope="module")
def report_page(demo_points, tmp_path_factory, browser):  # noqa: F811
    points = demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")
    points = points.replace({"classifier": {"naive bayes": EVIL}})
    table = cc.auc(points)
    hostile = pd.DataFrame(
        {"classifier": [EVIL, IMG, SVG], "cost": [0.25, np.nan, 1 / 3]},
        index=pd.Index(["a", IMG, "c"], name=EVIL),
    )
    wide = pd.DataFrame(np.random.default_rng(0).random((3, 40))).add_prefix("column ")
    sections = {
        "notes <b>": cc.markdown(
            f"## Results {EVIL}\n\nThe *envelope* {IMG} and [a link](javascript:window.pwned=4)"
            f" and [docs](https://example.org)\n\n- {SVG}\n- `{EVIL}`"
        ),
        "plain": f"Plain text {IMG}\n\n{EVIL}",
        "chart": cc.roc_cost_chart(points, classifier="classifier", size=220),
        "hostile table": hostile,
        "auc": table,
        "wide": wide,
    }
    path = cc.report(sections, tmp_path_factory.mktemp("report") / "report.html", title=EVIL)
    page = _offline_page(browser, path)
    yield page, table
    page.close()


def test_the_report_draws_offline_without_errors(report_page):
    page, _ = report_page
    assert page.costchart_errors == [] and page.costchart_requests == []
    assert page.locator("#costchart-chart-0 svg.marks").count() == 1


def test_hostile_cells_and_text_are_shown_as_text(report_page):
    page, _ = report_page
    assert page.evaluate(_NOTHING_RAN) == "undefined"
    assert page.evaluate(_INJECTED) == 0
    cells = page.locator("figure:nth-of-type(4) td").all_text_contents()
    assert cells[0] == EVIL and cells[2] == IMG and cells[4] == SVG
    assert cells[3] == "NaN" and cells[5] == "0.333333"
    rows = page.locator("figure:nth-of-type(4) tbody th").all_text_contents()
    assert rows == ["a", IMG, "c"]
    assert page.locator("figure:nth-of-type(4) thead th").first.text_content() == EVIL
    assert page.locator("h1").first.text_content() == EVIL
    assert page.locator("h2").first.text_content() == f"Results {EVIL}"
    text = page.locator("figure:nth-of-type(1) section").text_content()
    assert IMG in text and "[a link](javascript:window.pwned=4)" in text
    assert page.locator("figure:nth-of-type(1) code").text_content() == EVIL
    links = page.locator("figure:nth-of-type(1) a")
    assert links.count() == 1 and links.first.get_attribute("href") == "https://example.org"
    assert IMG in page.locator("figure:nth-of-type(2)").text_content()


def test_a_costchart_table_shows_its_values(report_page):
    page, table = report_page
    shown = page.locator("figure:nth-of-type(5) tbody tr")
    assert shown.count() == len(table)
    for number, row in enumerate(table.itertuples(index=False)):
        cells = shown.nth(number).locator("td").all_text_contents()
        assert cells[0] == str(row.classifier)
        assert float(cells[1]) == pytest.approx(row.auc, rel=1e-5)


def test_a_wide_table_scrolls_inside_its_box(report_page):
    page, _ = report_page
    box = page.locator("figure:nth-of-type(6) .costchart-table")
    widths = box.evaluate("(element) => [element.scrollWidth, element.clientWidth]")
    assert widths[0] > widths[1]  # the table is wider than its box, which scrolls
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")


def test_a_report_of_tables_and_text_alone_opens(tmp_path, browser):  # noqa: F811
    path = cc.report([f"Only text {EVIL}", pd.DataFrame({"x": [IMG]})], tmp_path / "t.html")
    page = browser.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(path.as_uri())
        assert page.locator("td").text_content() == IMG
        assert page.evaluate(_NOTHING_RAN) == "undefined" and errors == []
    finally:
        page.close()
