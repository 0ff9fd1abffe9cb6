"""Hostile grouping values and column names, drawn by every chart in a real browser.

Issue 31 item 1: pages with date colour values, an ``inf`` facet, a quote in the
explorer's colour column or a line break in a column's name saved but did not draw. Each
page here is a report of every chart taking a colour or facet column, on data whose
colour and facet columns hold values of two hostile kinds; it must draw every chart, with
marks, each value's text shown, and no console error. Few pages, many charts each: every
page load costs seconds.
"""

from __future__ import annotations

import datetime
import decimal
import warnings

import numpy as np
import pandas as pd
import pytest
from test_browser import browser, recording_page  # noqa: F401  (the fixture)

import costchart as cc

pytestmark = pytest.mark.slow

#: Per page: the colour column's two values and the facet column's, and the texts a
#: reader must find on every chart (``None``: values with no visible text of their own).
PAGES = {
    "dates and decimals": (
        [datetime.date(2020, 1, 31), datetime.date(2021, 6, 1)],
        [decimal.Decimal("1.5"), decimal.Decimal("10")],
        ["2020-01-31", "2021-06-01"],
    ),
    "bytes and infinities": ([b"tree", b"forest"], [float("inf"), -1.0], ["tree", "forest"]),
    "tuples and periods": (
        [(1, "a"), frozenset({2})],
        [pd.Period("2020-01", "M"), pd.Period("2020-02", "M")],
        ["(1, 'a')", "frozenset({2})"],
    ),
    "complex numbers and time deltas": (
        [1 + 2j, 3 + 0j],
        [pd.Timedelta("1D"), pd.Timedelta("2h")],
        ["(1+2j)", "(3+0j)"],
    ),
    "hostile strings and intervals": (
        ['a"b</script><b>x', "c'd\\e\u2028f"],
        [pd.Interval(0, 1), pd.Interval(1, 2)],
        None,
    ),
    "intervals and hostile strings": (
        [pd.Interval(0, 1), pd.Interval(1, 2)],
        ["p\u2029q\\", 'r"</script>s\n'],
        ["(0, 1]", "(1, 2]"],
    ),
    "missing names and large integers": ([None, "a"], [2**53 + 1, 2**53 + 2], ["a"]),
}

#: Column names Vega-Lite reads specially: a page of every chart with such names.
NAMES = ('a"b', "a.b[0]'c")


def _data(colour, facet, *, names=("g", "h"), n=50, seed=1) -> pd.DataFrame:
    """Two classifiers (colour) scoring the same ``n`` instances in each of two panels."""
    rng = np.random.default_rng(seed)
    label = np.tile(rng.integers(0, 2, n), 4)
    frame = pd.DataFrame({"s": (rng.random(4 * n) + 0.6 * label).round(2) / 1.6, "y": label})
    frame[names[0]] = pd.Series(([colour[0]] * n + [colour[1]] * n) * 2, dtype=object)
    frame[names[1]] = pd.Series([facet[0]] * (2 * n) + [facet[1]] * (2 * n), dtype=object)
    frame["fold"] = np.arange(4 * n) % 2
    frame["instance"] = np.r_[np.tile(np.arange(n), 2), np.tile(np.arange(n, 2 * n), 2)]
    return frame


def _charts(frame: pd.DataFrame, g: str, h: str) -> dict:
    """Every chart taking a colour or facet column, on ``frame``."""

    def points(by):
        return cc.roc_points(frame, score="s", label="y", by=by)

    pc = np.linspace(0, 1, 11)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cc.CostchartWarning)
        return {
            "cost_chart": cc.cost_chart(points([g, h]), classifier=g, facet=h, size=160),
            "roc_chart": cc.roc_chart(points([g, h]), classifier=g, facet=h, size=160),
            "roc_cost_chart": cc.roc_cost_chart(points([g, h]), classifier=g, facet=h, size=160),
            "roc_cost_chart combined": cc.roc_cost_chart(
                points([g, h]), classifier=g, facet=h, combined=True, size=160
            ),
            "threshold_choice_chart": cc.threshold_choice_chart(
                frame, score="s", label="y", classifier=g, facet=h, size=160
            ),
            "threshold_choice_chart, colour only": cc.threshold_choice_chart(
                frame, score="s", label="y", classifier=g, size=160
            ),
            "explorer": cc.explorer(points([g]), classifier=g, size=160),
            "pr_chart": cc.pr_chart(points([g, h]), classifier=g, facet=h, size=160),
            "average_chart": cc.average_chart(
                points([g, h, "fold"]), over="fold", classifier=g, facet=h, size=160
            ),
            "band_chart": cc.band_chart(
                cc.bootstrap_band(frame, score="s", label="y", by=[g, h], pc=pc),
                classifier=g,
                facet=h,
                size=160,
            ),
            "decision_curve_chart": cc.decision_curve_chart(
                cc.net_benefit(frame, score="s", label="y", by=[g, h]),
                classifier=g,
                facet=h,
                size=160,
            ),
            "coverage_chart": cc.coverage_chart(
                frame.groupby([g, h], sort=False, dropna=False)
                .size()
                .reset_index(name="runs")
                .assign(pc=0.5, coverage=0.9),
                color=g,
                facet=h,
            ),
            **(
                {}
                if frame[g].isna().any()  # a classifier compared needs a name
                else {
                    "difference_chart": cc.difference_chart(
                        cc.difference_band(
                            frame,
                            score="s",
                            label="y",
                            classifier=g,
                            instance="instance",
                            by=h,
                            pc=pc,
                        ),
                        facet=h,
                        size=160,
                    )
                }
            ),
        }


#: Per chart of the page: whether it was drawn, its data marks and every text it shows.
_DRAWN = """async (count) => {
  const out = [];
  for (let i = 0; i < count; i++) {
    const view = (window.costchartViews || [])[i];
    if (!view) { out.push(null); continue; }
    await view.runAsync();
    let marks = 0;
    const walk = (node) => {
      for (const item of (node && node.items) || []) {
        if (item.mark && item.mark.role === "mark" && item.mark.marktype !== "group") marks++;
        walk(item);
      }
    };
    walk(view.scenegraph().root);
    const texts = Array.from(document.querySelectorAll(`#costchart-chart-${i} svg text`))
      .map((t) => t.textContent);
    out.push({marks, texts});
  }
  return out;
}"""


def _open(browser, charts: dict, tmp_path) -> tuple[list, list, list]:  # noqa: F811
    path = cc.report(charts, tmp_path / "values.html")
    page = recording_page(browser, width=1600)
    errors, requests = page.costchart_errors, page.costchart_requests
    try:
        page.goto(path.as_uri())
        count = len(charts)
        # Every chart embedded, or given up with its error written in its place.
        page.wait_for_function(
            """(count) => {
              const views = window.costchartViews || [];
              let done = 0;
              for (let i = 0; i < count; i++) {
                const target = document.getElementById("costchart-chart-" + i);
                if (views[i] || target.textContent.startsWith("This chart")) done++;
              }
              return done === count;
            }""",
            arg=count,
            timeout=90_000,
        )
        drawn = page.evaluate(_DRAWN, count)
    finally:
        page.close()
    return drawn, errors, requests


def _check_page(browser, charts: dict, texts, tmp_path) -> None:  # noqa: F811
    drawn, errors, requests = _open(browser, charts, tmp_path)
    assert errors == [] and requests == [], (errors[:3], requests[:3])
    for name, result in zip(charts, drawn, strict=True):
        assert result is not None, f"{name} was not drawn"
        assert result["marks"] > 0, f"{name} drew no marks"
        for text in texts or ():
            assert any(
                t == text or t.endswith((f" {text}", f": {text}")) for t in result["texts"]
            ), f"{name} does not show {text!r}: {result['texts'][:40]}"


@pytest.mark.parametrize("kind", list(PAGES))
def test_every_chart_draws_hostile_values(kind, browser, tmp_path):  # noqa: F811
    colour, facet, texts = PAGES[kind]
    _check_page(browser, _charts(_data(colour, facet), "g", "h"), texts, tmp_path)


def test_every_chart_draws_columns_named_with_quotes_dots_and_brackets(browser, tmp_path):  # noqa: F811
    g, h = NAMES
    frame = _data(["x", "y"], ["p", "q"], names=NAMES)
    _check_page(browser, _charts(frame, g, h), ["x", "y"], tmp_path)


def test_a_line_break_in_a_column_name_is_refused_naming_it():
    frame = _data(["x", "y"], ["p", "q"], names=("a\nb", "h"))
    with pytest.raises(cc.CostchartError, match=r"'a\\nb' cannot be drawn.*rename the column"):
        cc.threshold_choice_chart(frame, score="s", label="y", classifier="a\nb")
